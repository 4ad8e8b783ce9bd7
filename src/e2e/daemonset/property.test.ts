/**
 * Property test of the ADS controller (see property-kit.ts for the invariants): random sequences
 * run concurrently in one embedded cluster, each on its own DaemonSet, with manager kills and
 * restarts. Replay: ADS_PROPERTY_SEED=<seed> [ADS_PROPERTY_COUNT=<n>].
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AdvancedDaemonSets } from '../../api/kruise/resource-types.js';
import { eventually, type WorkloadEnv } from '../../testing/workload-env.js';
import { allNodes, crashManager, nodeOf, onPodDelete, revisionOf, startDaemonSetEnv } from './fixtures.js';
import { createNamespace, daemonSetOf, scaled, sequenceArb, settledState, templates, Watched, type Knobs, type Sequence } from './property-kit.js';

const seed = Number(process.env.ADS_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const count = Number(process.env.ADS_PROPERTY_COUNT ?? 12);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ADS controller under random sequences', () => {
  let k: WorkloadEnv;
  const watched = new Map<string, Watched>();
  before(async () => {
    k = await startDaemonSetEnv({ around: onPodDelete((ns, name) => watched.get(ns)?.onDelete(name)) });
  });
  after(async () => {
    for (const w of watched.values()) w.stop();
    await k?.stop();
  });

  async function run(index: number, seq: Sequence): Promise<string[]> {
    const ns = await createNamespace(k.client, `prop-${index}`);
    const w = new Watched(ns, seq.kind);
    watched.set(ns, w);
    await w.watch(k.client);
    const knobs: Knobs = { ...seq.knobs };
    const usedTemplates = new Set([knobs.template]);
    w.pushSpec(knobs).generation = (await k.client.create(AdvancedDaemonSets, daemonSetOf(ns, 'ads', seq.kind, knobs))).metadata.generation ?? 1;
    await eventually(`${ns} first settle`, async () => (await settledState(k.client, w, knobs)) === undefined, 40_000);
    w.armed = true;
    w.check();
    let fresh = false;
    /** Smallest partition in force since the final template was set. */
    let leastPartition = scaled(knobs.partition, 4, false);
    for (const { step, waitMs } of seq.steps) {
      if (step.t === 'restart') {
        await crashManager(k);
      } else {
        if (step.t === 'template') {
          fresh = !usedTemplates.has(step.i);
          usedTemplates.add(step.i);
          knobs.template = step.i;
          leastPartition = scaled(knobs.partition, 4, false);
        } else if (step.t === 'partition') {
          knobs.partition = step.p;
          leastPartition = Math.min(leastPartition, scaled(step.p, 4, false));
        }
        else if (step.t === 'paused') knobs.paused = step.v;
        else knobs.budget = step.v;
        const view = w.pushSpec(knobs);
        const written = await k.client.patch(AdvancedDaemonSets, ns, 'ads', 'merge', { spec: daemonSetOf(ns, 'ads', seq.kind, knobs).spec });
        view.generation = written.metadata.generation ?? Infinity;
      }
      await sleep(waitMs);
    }
    let last: string | undefined;
    try {
      await eventually(`${ns} final settle`, async () => (last = await settledState(k.client, w, knobs)) === undefined, 45_000);
    } catch {
      w.fail(`never settled: ${last}`);
    }
    if (fresh && w.violations.length === 0) {
      const ds = await k.client.get<{ status?: { updateRevision?: string } } & Parameters<typeof k.client.create>[1]>(AdvancedDaemonSets, ns, 'ads');
      const updatedNodes = new Set(w.live().filter((p) => revisionOf(p) === ds.status?.updateRevision).map(nodeOf));
      const firstUpdated = allNodes.findIndex((n) => updatedNodes.has(n));
      if (firstUpdated >= 0 && allNodes.slice(firstUpdated).some((n) => !updatedNodes.has(n))) {
        w.fail(`updated nodes ${[...updatedNodes].join(',')} are not the largest names (fresh template ${JSON.stringify(templates[knobs.template])})`);
      }
      if (updatedNodes.size > 4 - leastPartition) w.fail(`${updatedNodes.size} nodes updated, partition was never below ${leastPartition}`);
    }
    w.stop();
    return w.violations;
  }

  test(`${count} random sequences keep the per-node, budget, pause and delete-once invariants and settle`, { timeout: 120_000 }, async (t) => {
    t.diagnostic(`seed ${seed}`);
    const sequences = fc.sample(sequenceArb, { seed, numRuns: count });
    const results = await Promise.all(sequences.map((s, i) => run(i, s)));
    const failures = results.flatMap((v, i) => (v.length ? [`#${i} ${JSON.stringify(sequences[i])}: ${v.join('; ')}`] : []));
    t.diagnostic(`manager restarts ${k.restarts()}; steps ${sequences.reduce((n, s) => n + s.steps.length, 0)}`);
    assert.deepEqual(failures, [], `seed ${seed}: replay with ADS_PROPERTY_SEED=${seed} node --import tsx --test src/e2e/daemonset/property.test.ts`);
  });
});
