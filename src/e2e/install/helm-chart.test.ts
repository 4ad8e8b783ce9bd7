/**
 * charts/kruise with the pinned Helm (scripts/helm.sh): `helm lint` and `helm template` for the default
 * values and for ci/all-values.yaml; what Helm renders is exactly what `kruise install --dry-run -o
 * yaml` prints with the same values; and the real kube-apiserver accepts every object (--dry-run=server).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, stringify } from 'yaml';
import { chartPath, helm, helmAvailable } from '../../testing/helm.js';
import { kubectlFor } from '../../testing/kubectl.js';
import { realControlPlaneAvailable, startRealControlPlane, type RealControlPlane } from '../../testing/real-control-plane.js';

type Obj = Record<string, any>; // any: rendered objects read field by field

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');
const allValues = path.join(chartPath, 'ci', 'all-values.yaml');
const cases = [{ name: 'default values', values: [] as string[] }, { name: 'ci/all-values.yaml', values: [allValues] }];

const docs = (text: string): Obj[] => parseAllDocuments(text).map((d) => d.toJS() as Obj).filter(Boolean);
const key = (o: Obj) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objs: Obj[]) => new Map(objs.map((o) => [key(o), o]));

function kruise(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (e, stdout, stderr) => resolve({ code: e ? 1 : 0, stdout, stderr }));
  });
}

const helmState = helmAvailable();

describe('the Helm chart with the pinned Helm', { skip: helmState.available ? false : helmState.reason, timeout: 300_000 }, () => {
  let home = '';
  before(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'kruise-helm-')); });
  after(async () => { await rm(home, { recursive: true, force: true }); });

  for (const c of cases) {
    test(`${c.name}: helm lint passes; helm template renders what kruise install --dry-run -o yaml prints`, async () => {
      const lint = await helm(['lint', chartPath, ...c.values.flatMap((v) => ['-f', v])], home);
      assert.equal(lint.code, 0, lint.stdout + lint.stderr);
      assert.match(lint.stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
      const rendered = await helm(['template', 'kruise', chartPath, ...c.values.flatMap((v) => ['-f', v])], home);
      assert.equal(rendered.code, 0, rendered.stderr);
      const printed = await kruise(['install', '--dry-run', '-o', 'yaml', ...c.values.flatMap((v) => ['-f', v])]);
      assert.equal(printed.code, 0, printed.stderr);
      const fromHelm = byKey(docs(rendered.stdout));
      const fromKruise = byKey(docs(printed.stdout));
      assert.deepEqual([...fromHelm.keys()].sort(), [...fromKruise.keys()].sort());
      for (const [k, o] of fromHelm) assert.deepEqual(o, fromKruise.get(k), k);
      assert.ok(fromHelm.has('Deployment kruise-system/kruise-controller-manager') || fromHelm.has('Deployment kruise-ts/kruise-controller-manager'));
    });
  }

  const real = realControlPlaneAvailable();
  describe('on the real kube-apiserver v1.32', { skip: real.available ? false : real.reason }, () => {
    let plane: RealControlPlane;
    before(async () => { plane = await startRealControlPlane({ withControllerManager: false }); });
    after(async () => { await plane?.stop(); });

    for (const c of cases) {
      test(`${c.name}: every rendered object is accepted with --dry-run=server`, async () => {
        const kubectl = kubectlFor(plane.kubeconfig, path.join(home, `kube-cache-${c.values.length}`));
        const objects = docs((await helm(['template', 'kruise', chartPath, ...c.values.flatMap((v) => ['-f', v])], home)).stdout);
        // Namespaced objects need their namespace; the CRDs are applied first so nothing waits on them.
        for (const ns of new Set(objects.map((o) => o.metadata.namespace).filter(Boolean))) await kubectl(['create', 'namespace', ns]);
        const r = await kubectl(['apply', '--dry-run=server', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n') });
        assert.equal(r.code, 0, r.stderr);
        const accepted = r.stdout.trim().split('\n');
        assert.equal(accepted.length, objects.length, r.stdout);
        assert.ok(accepted.every((l) => /\((server dry run)\)$/.test(l)), r.stdout);
      });
    }
  });
});
