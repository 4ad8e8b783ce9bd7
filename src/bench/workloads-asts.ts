/**
 * Scenario `advancedstatefulset`: one Advanced StatefulSet (apps.kruise.io/v1beta1) of
 * --asts-replicas pods (default 300), podManagementPolicy Parallel, on --nodes simulated nodes.
 *   scale-up   create it; time to every pod Ready
 *   in-place   image v1 -> v2 with podUpdatePolicy InPlaceIfPossible, maxUnavailable --max-unavailable
 *              (readiness gate InPlaceUpdateReady in the template, as the webhook requires)
 * The image is new to every node, so the rollout pays one simulated pull per node and a container
 * start per pod. Done when all pods are on the new revision and Ready; the set's status reporting
 * the same (currentRevision == updateRevision) is a milestone of its own. No goals: figures only.
 * The stage lists and the not-Ready tracker are shared with workloads-ads.ts.
 */
import { AdvancedStatefulSets } from '../api/kruise/resource-types.js';
import { Namespaces } from '../api/resource-type.js';
import type { BenchEnv, PhaseResult, Scenario, ScenarioOutcome } from './workloads-scenario.js';
import { isLive, isReady, revisionOf, statusOf, statusSettled, updatedFrom } from './workloads-pods.js';
import { inPlaceStages, keptAndRestarted, NotReadyTracker, parseIntOrPercent, scaleUpPhase } from './workloads-phases.js';
import { StoreWatch } from './workloads-watch.js';

const ns = 'bench-asts';
const name = 'db';
const image = (tag: string) => `bench.local/db:${tag}`;

const statefulSet = (replicas: number, maxUnavailable: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name, namespace: ns },
  spec: {
    replicas, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: parseIntOrPercent(maxUnavailable) } },
    template: {
      metadata: { labels: { app: name } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'db', image: image('v1'), resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
      },
    },
  },
});

export const advancedStatefulSetScenario: Scenario = {
  name: 'advancedstatefulset',
  title: 'Advanced StatefulSet (Parallel): scale up, then an image rollout in place',
  async run(env: BenchEnv): Promise<ScenarioOutcome> {
    const { plane, options } = env;
    const n = options.astsReplicas;
    await plane.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const pods = new StoreWatch(plane.store, `/core/pods/${ns}/`, (p) => p.metadata.labels?.app === name);
    const sets = new StoreWatch(plane.store, `/apps.kruise.io/statefulsets/${ns}/`, (o) => o.metadata.name === name);
    try {
      const scaleUp = await env.measure(scaleUpPhase({
        name: `scale-up 0->${n}`, n, pods, sets, settled: statusSettled(n),
        create: async () => { await plane.client.create(AdvancedStatefulSets, statefulSet(n, options.maxUnavailable)); },
      }));
      const inPlace = await inPlaceRollout(env, pods, sets, n, 'v2');
      return {
        phases: [scaleUp, inPlace.phase],
        facts: {
          'set': `${n} replicas, podManagementPolicy Parallel, podUpdatePolicy InPlaceIfPossible, maxUnavailable ${options.maxUnavailable} (floor, min 1)`,
          'in-place: pods kept (same UID) / restarted in place': `${inPlace.kept}/${n} / ${inPlace.restarted}/${n}`,
          'in-place: most pods not Ready at once': inPlace.maxNotReady,
        },
        goals: [],
      };
    } finally {
      pods.stop();
      sets.stop();
    }
  },
};

export interface InPlaceRollout {
  phase: PhaseResult;
  kept: number;
  restarted: number;
  maxNotReady: number;
}

async function inPlaceRollout(env: BenchEnv, pods: StoreWatch, sets: StoreWatch, n: number, tag: string): Promise<InPlaceRollout> {
  const before = pods.items();
  const updated = updatedFrom(new Set(before.map(revisionOf)));
  const oldUpdateRevision = statusOf(sets.items()[0]!).updateRevision;
  const settled = statusSettled(n);
  const notReady = new NotReadyTracker(pods, n);
  const phase = await env.measure({
    name: `in-place (InPlaceIfPossible) ${tag}`, pods: n, done: 'all updated+Ready', stages: { watch: pods, list: inPlaceStages(updated) },
    start: async () => {
      await env.plane.client.patch(AdvancedStatefulSets, ns, name, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image(tag) }]);
    },
    milestones: [
      { name: 'first updated', watch: pods, match: updated, count: 1 },
      { name: 'all updated', watch: pods, match: (p) => isLive(p) && updated(p), count: n },
      { name: 'all updated+Ready', watch: pods, match: (p) => isLive(p) && updated(p) && isReady(p), count: n, exact: true },
      {
        name: 'status', watch: sets, count: 1,
        match: (o) => settled(o) && statusOf(o).updateRevision !== oldUpdateRevision && statusOf(o).currentRevision === statusOf(o).updateRevision,
      },
    ],
  });
  return { phase, ...keptAndRestarted(before, pods.items()), maxNotReady: notReady.stop() };
}
