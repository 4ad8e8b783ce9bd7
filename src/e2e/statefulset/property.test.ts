/**
 * Rollout invariants under random operation sequences (fast-check): several sets with random
 * policies run their own sequences of scale, template change, partition change, pause and
 * manager restart concurrently in one env. Checked throughout: maxUnavailable never exceeded,
 * pods below the partition never change revision, no pod deleted twice; and at the end (partition
 * 0, unpaused) every set reaches its final state.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { DeleteRecorder } from './delete-recorder.js';
import { RolloutMonitor } from './rollout-monitor.js';
import { retryOnConflict } from '../../client/retry.js';
import { AdvancedStatefulSets, IMG1, IMG2, patchSpec, settled, startStatefulSetEnv, sts, type StatefulSet } from './fixtures.js';

const images = [IMG1, IMG2, 'nginx:1.27-alpine'];

type Step =
  | { kind: 'scale'; replicas: number }
  | { kind: 'image'; image: number }
  | { kind: 'partition'; value: number }
  | { kind: 'pause'; paused: boolean }
  | { kind: 'restart' }
  | { kind: 'wait'; ms: number };

interface Scenario {
  parallel: boolean;
  inPlace: boolean;
  maxUnavailable: number;
  steps: Step[];
}

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('scale' as const), replicas: fc.integer({ min: 3, max: 5 }) }),
  fc.record({ kind: fc.constant('image' as const), image: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('image' as const), image: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ kind: fc.constant('partition' as const), value: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('pause' as const), paused: fc.boolean() }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 1_200 }) }),
  fc.constant({ kind: 'restart' as const }),
);

const scenario: fc.Arbitrary<Scenario> = fc.record({
  parallel: fc.boolean(), inPlace: fc.boolean(), maxUnavailable: fc.integer({ min: 1, max: 2 }),
  steps: fc.array(step, { minLength: 3, maxLength: 7 }),
}).map((s) => ({ ...s, maxUnavailable: s.parallel ? s.maxUnavailable : 1 }));

const runs = Number(process.env.ASTS_PROPERTY_RUNS ?? 3);

describe('Advanced StatefulSet: rollout invariants (property)', () => {
  let w: WorkloadEnv;
  const recorder = new DeleteRecorder();
  before(async () => { w = await startStatefulSetEnv({ around: recorder.around }); });
  after(() => w.stop());

  test('random concurrent sequences keep the invariants and settle', { timeout: 120_000 }, async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.array(scenario, { minLength: 3, maxLength: 3 }), async (scenarios) => {
      const monitor = new RolloutMonitor(w.client, `prop-run=r${run}`);
      monitor.start();
      let restarts = Promise.resolve();
      const restart = () => (restarts = restarts.then(() => w.restartManager()));
      try {
        await Promise.all(scenarios.map((s, i) => runScenario(w, monitor, `p${run}-${i}`, `r${run}`, s, restart)));
      } finally {
        monitor.stop();
        run++;
      }
      assert.deepEqual(monitor.violations, []);
      assert.deepEqual(recorder.deletedTwice(), []);
    }), { numRuns: runs, endOnFailure: true, includeErrorInReport: true });
  });
});

async function runScenario(w: WorkloadEnv, monitor: RolloutMonitor, name: string, run: string, s: Scenario, restart: () => Promise<void>): Promise<void> {
  const spec = {
    replicas: 3, podManagementPolicy: s.parallel ? 'Parallel' : 'OrderedReady',
    updateStrategy: { rollingUpdate: { maxUnavailable: s.maxUnavailable, podUpdatePolicy: s.inPlace ? 'InPlaceIfPossible' : 'ReCreate' } },
    ...(s.parallel ? { scaleStrategy: { maxUnavailable: s.maxUnavailable } } : {}),
  };
  const manifest = sts(name, spec);
  (manifest.spec!.template.metadata as { labels: Record<string, string> }).labels['prop-run'] = run;
  const wrote = (set: StatefulSet, scaled = false) => monitor.wrote(set, s.maxUnavailable, scaled);
  // The embedded server can still answer a merge patch with 409 under heavy status traffic; a client retries.
  const patch = (body: Record<string, unknown>) => retryOnConflict(() => patchSpec(w.client, name, body), { attempts: 10 });
  wrote(await w.client.create(AdvancedStatefulSets, manifest), true);
  await settled(w.client, name, 3);
  let replicas = 3;
  for (const st of s.steps) {
    if (st.kind === 'scale') wrote(await patch({ replicas: (replicas = st.replicas) }), true);
    else if (st.kind === 'image') wrote(await patch({ template: { spec: { containers: [{ name: 'app', image: images[st.image]! }] } } }));
    else if (st.kind === 'partition') wrote(await patch({ updateStrategy: { rollingUpdate: { partition: st.value } } }));
    else if (st.kind === 'pause') wrote(await patch({ updateStrategy: { rollingUpdate: { paused: st.paused } } }));
    else if (st.kind === 'restart') await restart();
    else await new Promise((r) => setTimeout(r, st.ms));
  }
  wrote(await patch({ updateStrategy: { rollingUpdate: { partition: 0, paused: false } } }));
  await settled(w.client, name, replicas, { timeoutMs: 90_000 });
}
