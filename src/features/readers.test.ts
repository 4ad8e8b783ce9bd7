/**
 * The gate audit (docs/design/feature-gates.md): every gate of the catalogue is either read where the
 * table says, or declared missing and read nowhere. Reads the TypeScript sources, so a gate that
 * gains or loses its reader fails here until the table follows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kruiseFeatureGates, kruiseGates } from './kruise.js';
import { gateReaders, gateReport, gateReportLines } from './readers.js';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const sources = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith(`features${path.sep}`) && !f.startsWith(`bench${path.sep}`) && !f.startsWith(`testing${path.sep}`))
  .map((f) => ({ file: f, text: readFileSync(path.join(src, f), 'utf8') }));
const quoted = (name: string) => new RegExp(`['"]${name}['"]`);
// a call with the gate name as its argument: gate('X'), g("X"), enabled('X')
const readCall = (name: string) => new RegExp(`\\(\\s*['"]${name}['"]\\s*\\)`);

test('every gate of the catalogue has exactly one entry', () => {
  assert.deepEqual(Object.keys(gateReaders).sort(), Object.keys(kruiseGates).sort());
});

for (const [name, reader] of Object.entries(gateReaders)) {
  if ('readBy' in reader) {
    test(`${name} is read by ${reader.readBy.join(', ')}`, () => {
      for (const file of reader.readBy) {
        const text = sources.find((s) => s.file === file)?.text;
        assert.ok(text !== undefined, `${file} does not exist under src/`);
        assert.match(text, quoted(name), `${file} never names ${name}`);
      }
    });
  } else if ('missing' in reader) {
    test(`${name} is read nowhere (missing: ${reader.missing})`, () => {
      const readers = sources.filter((s) => readCall(name).test(s.text) && !reader.partly?.includes(s.file)).map((s) => s.file);
      assert.deepEqual(readers, [], `${name} is read now: move it to readBy`);
    });
  }
}

test('start-up report: missing features are warned about, not listed as on', () => {
  const gates = kruiseFeatureGates('AllAlpha=true,AllBeta=true');
  const report = gateReport(gates);
  assert.ok(report.on.includes('CloneSetShortHash'));
  assert.ok(!report.on.includes('EnhancedLivenessProbe'));
  assert.deepEqual(report.withoutEffect.find((g) => g.name === 'EnhancedLivenessProbe')?.missing, 'enhanced liveness probes (NodePodProbe-driven container restarts)');
  const lines = gateReportLines(gates);
  assert.match(lines[0]!, /^kruise feature gates on: .*CloneSetShortHash/);
  assert.ok(lines.some((l) => l.startsWith('warning: feature gate EnhancedLivenessProbe is on but has no effect here yet (missing: enhanced liveness probes')));
  assert.deepEqual(gateReportLines(kruiseFeatureGates('PodWebhook=false,KruiseDaemon=false,WorkloadSpread=false,PodUnavailableBudgetDeleteGate=false,DaemonWatchingPod=false,InPlaceUpdateEnvFromMetadata=false,StatefulSetAutoDeletePVC=false,PodProbeMarkerGate=false,PodIndexLabel=false')), [
    'kruise feature gates on: (none)',
  ]);
});
