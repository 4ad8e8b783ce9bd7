import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compare, concurrentPair, sequentialPair, summarize } from './admission-measure.js';
import { diffCalls, parseCalls } from './admission-procs.js';

test('sequentialPair alternates batches A B B A and gives each side n samples', async () => {
  const log: string[] = [];
  const [a, b] = await sequentialPair(async () => { log.push('a'); }, async () => { log.push('b'); }, 5, 2);
  assert.equal(a.length, 5);
  assert.equal(b.length, 5);
  assert.equal(log.join(''), 'aabbbbaaab');
});

test('concurrentPair runs n per side and reports a rate', async () => {
  let a = 0;
  let b = 0;
  const [base, hooked] = await concurrentPair(async () => { a++; }, async () => { b++; }, 10, 3, 2);
  assert.deepEqual([a, b, base.n, hooked.n], [10, 10, 10, 10]);
  assert.ok(base.perSec > 0 && hooked.perSec > 0);
});

test('summarize and compare report percentiles, added milliseconds and ratios', () => {
  const base = summarize(Array.from({ length: 100 }, (_, i) => i + 1));
  const hooked = summarize(Array.from({ length: 100 }, (_, i) => 2 * (i + 1)));
  assert.deepEqual([base.p50, base.p99, base.mean], [50, 99, 50.5]);
  assert.deepEqual(compare(base, hooked), { addedP50Ms: 50, addedP99Ms: 99, ratioP50: 2, ratioP99: 2 });
});

test('parseCalls sums both webhook histograms by webhook; diffCalls keeps what was called in between', () => {
  const page = [
    'apiserver_admission_webhook_admission_duration_seconds_sum{name="mpod.kb.io",type="admit",operation="CREATE",rejected="false"} 0.5',
    'apiserver_admission_webhook_admission_duration_seconds_count{name="mpod.kb.io",type="admit",operation="CREATE",rejected="false"} 4',
    'apiserver_admission_webhook_admission_duration_seconds_count{name="mpod.kb.io",type="admit",operation="CREATE",rejected="true"} 1',
    'apiserver_admission_webhook_admission_duration_seconds_bucket{name="mpod.kb.io",le="0.005"} 3',
    'controller_runtime_webhook_latency_seconds_sum{webhook="/mutate-pod"} 0.25',
    'controller_runtime_webhook_latency_seconds_count{webhook="/mutate-pod"} 5',
  ].join('\n');
  const after = parseCalls(page);
  assert.deepEqual(after, { 'mpod.kb.io': { count: 5, seconds: 0.5 }, '/mutate-pod': { count: 5, seconds: 0.25 } });
  assert.deepEqual(diffCalls(after, { 'mpod.kb.io': { count: 5, seconds: 0.5 }, '/mutate-pod': { count: 2, seconds: 0.1 } }), { '/mutate-pod': { count: 3, seconds: 0.25 - 0.1 } });
});
