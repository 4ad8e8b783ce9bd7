/**
 * Scenario `cloneset`: one CloneSet of --replicas pods on --nodes simulated nodes.
 *   scale-up   create it; time to every pod Ready
 *   idle       --idle-s seconds with every pod Ready and nothing changing: the manager's average CPU
 *              (millicores) and RSS, the idle figure of docs/design/install.md §8
 *   in-place   image v1 -> v2 with podUpdatePolicy InPlaceIfPossible, maxUnavailable --max-unavailable
 *   recreate   podUpdatePolicy switched to ReCreate (not timed), then image v2 -> v3, same budget
 * Each image is new to every node, so both rollouts pay the same simulated pull (once per image and
 * node) and start delays; a recreated pod adds only API, scheduler and controller work, as the
 * simulated kubelet models no sandbox or network setup.
 * A rollout is done when exactly --replicas pods exist (none terminating), all on the new revision
 * and Ready; the CloneSet's status reporting the same is a milestone of its own.
 */
import { CloneSets } from '../api/kruise/resource-types.js';
import type { KObject } from '../api/meta.js';
import { Namespaces } from '../api/resource-type.js';
import type { BenchEnv, Goal, PhaseResult, Scenario, ScenarioOutcome } from './workloads-scenario.js';
import { procUsage } from './workloads-proc.js';
import { isLive, isReady, revisionOf, statusOf, statusSettled, updatedFrom } from './workloads-pods.js';
import { inPlaceStages, keptAndRestarted, newPodStages, oldPodStages, parseIntOrPercent, scaleUpPhase } from './workloads-phases.js';
import { StoreWatch } from './workloads-watch.js';
import { startStallDump } from './workloads-stall-dump.js';

const ns = 'bench-cloneset';
const name = 'web';
const image = (tag: string) => `bench.local/web:${tag}`;

const cloneSet = (replicas: number, maxUnavailable: string) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
  spec: {
    replicas, selector: { matchLabels: { app: name } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: parseIntOrPercent(maxUnavailable) } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'web', image: image('v1'), resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
    },
  },
});

export const cloneSetScenario: Scenario = {
  name: 'cloneset',
  title: 'CloneSet: scale up, then an image rollout in place and by recreate',
  async run(env: BenchEnv): Promise<ScenarioOutcome> {
    const { plane, options } = env;
    const n = options.replicas;
    await plane.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    const pods = new StoreWatch(plane.store, `/core/pods/${ns}/`, (p) => p.metadata.labels?.app === name);
    const sets = new StoreWatch(plane.store, `/apps.kruise.io/clonesets/${ns}/`, (o) => o.metadata.name === name);
    try {
      const scaleUp = await env.measure(scaleUpPhase({
        name: `scale-up 0->${n}`, n, pods, sets, settled: statusSettled(n),
        create: async () => { await plane.client.create(CloneSets, cloneSet(n, options.maxUnavailable)); },
      }));
      const idle = await idleWindow(env, options.idleSeconds);
      const inPlace = await rollout(env, pods, sets, 'in-place (InPlaceIfPossible)', 'v2', false);
      await switchPolicy(env, sets, 'ReCreate');
      const recreate = await rollout(env, pods, sets, 'recreate (ReCreate)', 'v3', true);
      return outcome(n, options.maxUnavailable, scaleUp, idle, inPlace, recreate);
    } finally {
      pods.stop();
      sets.stop();
    }
  },
};

interface Rollout {
  phase: PhaseResult;
  kept: number;
  restarted: number;
}

async function rollout(env: BenchEnv, pods: StoreWatch, sets: StoreWatch, label: string, tag: string, recreated: boolean): Promise<Rollout> {
  const n = env.options.replicas;
  const before = pods.items();
  const old = new Set(before.map(revisionOf));
  const oldUpdateRevision = statusOf(sets.items()[0]!).updateRevision;
  const updated = updatedFrom(old);
  const settled = statusSettled(n);
  const stopDump = startStallDump(`${label} ${tag}`, pods, sets, env.manager.metricsUrl);
  const phase = await env.measure({
    name: `${label} ${tag}`, pods: n, done: 'all updated+Ready',
    stages: { watch: pods, list: recreated ? [...oldPodStages(updated), ...newPodStages(updated)] : inPlaceStages(updated) },
    start: async () => {
      await env.plane.client.patch(CloneSets, ns, name, 'json', [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image(tag) }]);
    },
    milestones: [
      { name: 'first updated', watch: pods, match: updated, count: 1 },
      { name: 'all updated', watch: pods, match: (p) => isLive(p) && updated(p), count: n },
      { name: 'all updated+Ready', watch: pods, match: (p) => isLive(p) && updated(p) && isReady(p), count: n, exact: true },
      { name: 'status', watch: sets, match: (o) => settled(o) && statusOf(o).updateRevision !== oldUpdateRevision, count: 1 },
    ],
  }).finally(stopDump);
  return { phase, ...keptAndRestarted(before, pods.items()) };
}

/** Changes only the update policy (no new revision) and waits until the controller saw it. */
async function switchPolicy(env: BenchEnv, sets: StoreWatch, policy: string): Promise<void> {
  await env.plane.client.patch(CloneSets, ns, name, 'merge', { spec: { updateStrategy: { rollingUpdate: { podUpdatePolicy: policy } } } });
  const seen = (o: KObject) => statusOf(o).observedGeneration === o.metadata.generation;
  await sets.until(`CloneSet observes podUpdatePolicy ${policy}`, { match: seen, count: 1 }, env.options.timeoutMs);
}

interface Idle {
  seconds: number;
  millicores: number;
  rssMiB: number;
}

/** The manager's average CPU and its RSS over a window in which nothing changes. */
async function idleWindow(env: BenchEnv, seconds: number): Promise<Idle> {
  const pid = env.manager.child.pid!;
  const before = await procUsage(pid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = await procUsage(pid);
  return { seconds, millicores: Math.round(((after.cpuSeconds - before.cpuSeconds) / seconds) * 10_000) / 10, rssMiB: after.rssMiB };
}

function outcome(n: number, maxUnavailable: string, scaleUp: PhaseResult, idle: Idle, inPlace: Rollout, recreate: Rollout): ScenarioOutcome {
  const ratio = Math.round((recreate.phase.seconds / inPlace.phase.seconds) * 100) / 100;
  const goals: Goal[] = [
    { name: `${n} pods Ready in under 10 s`, met: scaleUp.seconds < 10, value: `${scaleUp.seconds} s` },
    { name: 'in-place at least 3x faster than recreate, end to end', met: ratio >= 3, value: `${ratio}x (${recreate.phase.seconds} s / ${inPlace.phase.seconds} s)` },
    { name: `manager idle with ${n} pods under 5 millicores (average over ${idle.seconds} s)`, met: idle.millicores < 5, value: `${idle.millicores} millicores` },
    { name: `manager idle RSS with ${n} pods under 150 MB`, met: idle.rssMiB * 1.048576 < 150, value: `${Math.round(idle.rssMiB * 1.048576)} MB (${idle.rssMiB} MiB)` },
  ];
  return {
    phases: [scaleUp, inPlace.phase, recreate.phase],
    facts: {
      'rollout budget': `maxUnavailable ${maxUnavailable}, maxSurge 0`,
      'simulated per-pod work': 'in place: container restart (start delay); recreate: delete, create, schedule, start; image pull once per image and node in both',
      'recreate / in-place time': `${ratio}x`,
      [`manager idle with ${n} pods Ready (${idle.seconds} s)`]: `${idle.millicores} millicores, RSS ${idle.rssMiB} MiB`,
      'in-place: pods kept (same UID) / restarted in place': `${inPlace.kept}/${n} / ${inPlace.restarted}/${n}`,
      'recreate: pods kept (same UID)': `${recreate.kept}/${n}`,
    },
    goals,
  };
}
