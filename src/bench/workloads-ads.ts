/**
 * Scenario `advanceddaemonset`: one Advanced DaemonSet (apps.kruise.io/v1beta1) over the --nodes
 * simulated nodes, one pod per node, rollingUpdate maxUnavailable 10% (ceil, so at least one node).
 *   scale-up   create it (rollingUpdateType Standard); time to a Ready pod on every node
 *   standard   image v1 -> v2, Standard: each old pod deleted, then a new one created on its node
 *   switch     rollingUpdateType InPlaceIfPossible and image v3 in one write: the pods are still
 *              recreated, as they lack the InPlaceUpdateReady gate (docs/design/advanced-daemonset.md §11 D5)
 *   in-place   image v3 -> v4, InPlaceIfPossible: same pods, containers restarted
 * Every image is new to every node (one simulated pull per image and node). A rollout is done when
 * exactly one live pod per node exists, all on the new revision and Ready; the DaemonSet's status
 * reporting the same is a milestone of its own. No goals: figures only.
 */
import { AdvancedDaemonSets } from '../api/kruise/resource-types.js';
import type { KObject } from '../api/meta.js';
import { Namespaces } from '../api/resource-type.js';
import type { BenchEnv, PhaseResult, Scenario, ScenarioOutcome } from './workloads-scenario.js';
import type { Stage } from './workloads-stages.js';
import { isLive, isReady, revisionOf, updatedFrom } from './workloads-pods.js';
import { inPlaceStages, keptAndRestarted, newPodStages, NotReadyTracker, scaleUpPhase } from './workloads-phases.js';
import { StoreWatch } from './workloads-watch.js';

const ns = 'bench-ads';
const name = 'agent';
const maxUnavailable = '10%';
const image = (tag: string) => `bench.local/agent:${tag}`;

const daemonSet = () => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name, namespace: ns },
  spec: {
    selector: { matchLabels: { app: name } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'agent', image: image('v1'), resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
    },
  },
});

interface DaemonSetStatus {
  observedGeneration?: number;
  desiredNumberScheduled?: number;
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  numberReady?: number;
  numberAvailable?: number;
  updatedNumberScheduled?: number;
  updateRevision?: string;
}

const dsStatus = (o: KObject) => ((o as { status?: DaemonSetStatus }).status ?? {});

/** The status reports the current generation with `n` nodes scheduled, ready, available and updated, none misscheduled. */
const dsSettled = (n: number) => (o: KObject) => {
  const s = dsStatus(o);
  return s.observedGeneration === o.metadata.generation && s.desiredNumberScheduled === n && s.currentNumberScheduled === n
    && s.numberReady === n && s.numberAvailable === n && s.updatedNumberScheduled === n && (s.numberMisscheduled ?? 0) === 0;
};

type JsonPatch = { op: 'add' | 'replace'; path: string; value: unknown }[];
const setImage = (tag: string): JsonPatch => [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image(tag) }];

interface RolloutSpec {
  label: string;
  tag: string;
  patch: JsonPatch;
  recreated: boolean;
}

interface Rollout {
  phase: PhaseResult;
  kept: number;
  restarted: number;
  maxNotReady: number;
  perNode: string;
}

export const advancedDaemonSetScenario: Scenario = {
  name: 'advanceddaemonset',
  title: `Advanced DaemonSet: a pod per node, then image rollouts (Standard; InPlaceIfPossible), maxUnavailable ${maxUnavailable}`,
  async run(env: BenchEnv): Promise<ScenarioOutcome> {
    const { plane } = env;
    const n = env.options.nodes;
    await plane.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const pods = new StoreWatch(plane.store, `/core/pods/${ns}/`, (p) => p.metadata.labels?.app === name);
    const sets = new StoreWatch(plane.store, `/apps.kruise.io/daemonsets/${ns}/`, (o) => o.metadata.name === name);
    try {
      const scaleUp = await env.measure(scaleUpPhase({
        name: `scale-up 0->${n} nodes`, n, pods, sets, settled: dsSettled(n),
        create: async () => { await plane.client.create(AdvancedDaemonSets, daemonSet()); },
      }));
      const placed = perNode(pods.items(), n);
      const standard = await rollout(env, pods, sets, { label: 'Standard rollout', tag: 'v2', patch: setImage('v2'), recreated: true });
      const switched = await rollout(env, pods, sets, {
        label: 'switch to InPlaceIfPossible', tag: 'v3', recreated: true,
        patch: [...setImage('v3'), { op: 'add', path: '/spec/updateStrategy/rollingUpdate/rollingUpdateType', value: 'InPlaceIfPossible' }],
      });
      const inPlace = await rollout(env, pods, sets, { label: 'in-place (InPlaceIfPossible)', tag: 'v4', patch: setImage('v4'), recreated: false });
      const kept = (r: Rollout) => `${r.kept}/${n} / ${r.restarted}/${n}`;
      return {
        phases: [scaleUp, standard.phase, switched.phase, inPlace.phase],
        facts: {
          'rollout budget': `maxUnavailable ${maxUnavailable} of ${n} nodes (ceil), maxSurge 0`,
          'pods per node after scale-up / each rollout': [placed, standard.perNode, switched.perNode, inPlace.perNode].join(' / '),
          'standard: pods kept (same UID) / restarted in place': kept(standard),
          'switch to InPlaceIfPossible: pods kept / restarted in place': kept(switched),
          'in-place: pods kept / restarted in place': kept(inPlace),
          'most nodes without a Ready pod at once (standard / switch / in-place)': `${standard.maxNotReady} / ${switched.maxNotReady} / ${inPlace.maxNotReady}`,
        },
        goals: [],
      };
    } finally {
      pods.stop();
      sets.stop();
    }
  },
};

/** An old pod replaced: deleted by the controller, gone once the kubelet let go. */
const oldPodStages = (updated: (p: KObject) => boolean): Stage[] => [
  { name: 'old terminating', check: (p) => !updated(p) && !!p.metadata.deletionTimestamp },
  { name: 'old gone', check: (p, gone) => !updated(p) && gone, from: 'old terminating' },
];

async function rollout(env: BenchEnv, pods: StoreWatch, sets: StoreWatch, r: RolloutSpec): Promise<Rollout> {
  const n = env.options.nodes;
  const before = pods.items();
  const updated = updatedFrom(new Set(before.map(revisionOf)));
  const oldRevision = dsStatus(sets.items()[0]!).updateRevision;
  const settled = dsSettled(n);
  const notReady = new NotReadyTracker(pods, n);
  const phase = await env.measure({
    name: `${r.label} ${r.tag}`, pods: n, done: 'all updated+Ready',
    stages: { watch: pods, list: r.recreated ? [...oldPodStages(updated), ...newPodStages(updated)] : inPlaceStages(updated) },
    start: async () => { await env.plane.client.patch(AdvancedDaemonSets, ns, name, 'json', r.patch); },
    milestones: [
      { name: 'first updated', watch: pods, match: updated, count: 1 },
      { name: 'all updated', watch: pods, match: (p) => isLive(p) && updated(p), count: n },
      { name: 'all updated+Ready', watch: pods, match: (p) => isLive(p) && updated(p) && isReady(p), count: n, exact: true },
      { name: 'status', watch: sets, match: (o) => settled(o) && dsStatus(o).updateRevision !== oldRevision, count: 1 },
    ],
  });
  const after = pods.items();
  return { phase, ...keptAndRestarted(before, after), maxNotReady: notReady.stop(), perNode: perNode(after, n) };
}

/** "n/n nodes, 1 each" when every node runs exactly one live pod; else what was found. */
function perNode(pods: KObject[], n: number): string {
  const counts = new Map<string, number>();
  for (const p of pods.filter(isLive)) {
    const node = (p as { spec?: { nodeName?: string } }).spec?.nodeName ?? '(unbound)';
    counts.set(node, (counts.get(node) ?? 0) + 1);
  }
  const single = [...counts.values()].every((c) => c === 1);
  return `${counts.size}/${n} nodes, ${single ? '1 each' : `max ${Math.max(...counts.values())}`}`;
}
