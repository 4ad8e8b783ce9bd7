/**
 * Zero-breach chaos proof of docs/design/podunavailablebudget.md §10, in CI size (PUB_CHAOS_FAULTS
 * raises the count; `npm run bench:protection` runs 200).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPubChaos } from './chaos.js';

test('random deletes, evictions, image changes and manager crashes never take a workload below its PUB', async (t) => {
  const faults = Number(process.env.PUB_CHAOS_FAULTS ?? 40);
  const r = await runPubChaos({ faults });
  t.diagnostic(`faults ${r.faults}, admitted ${r.admitted}, refused ${r.refused}, manager crashes ${r.restarts}, samples ${r.samples}, breaches ${r.breaches.length}`);
  assert.deepEqual(r.breaches, []);
  assert.ok(r.refused > 0, 'the budget refused something');
  assert.ok(r.admitted > 0, 'the budget admitted something');
  // the sampler kept up for the whole run (a faster cluster makes the run, not the rate, shorter)
  assert.ok(r.samples >= 10 && r.samples >= r.sampledMs / 300, `${r.samples} samples in ${Math.round(r.sampledMs)} ms`);
});
