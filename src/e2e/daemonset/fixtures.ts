/**
 * Shared pieces of the Advanced DaemonSet acceptance tests (docs/design/advanced-daemonset.md §11): four simulated
 * nodes standing in for node-a..node-d (kruise-node-0..3 sort the same way), the base manifest
 * `ADS`, a workload env running the ADS and pod-readiness controllers, node label/taint helpers,
 * pod/status readers and a pod watcher that checks an invariant on every pod event.
 */
import assert from 'node:assert/strict';
import { AdvancedDaemonSets } from '../../api/kruise/resource-types.js';
import type { DaemonSet } from '../../api/kruise/workloads/daemonset.js';
import { ControllerRevisions, Namespaces, Nodes } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupAdvancedDaemonSetController } from '../../controllers/daemonset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { isLive, livePods as liveAppPods, watchPods as watchAppPods, type PodWatch } from '../../testing/pod-watch.js';
import { isPodCall, type Around } from '../../testing/recording-client.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';
import type { Pod, PodCondition, Taint } from '../../api/core/index.js';

export { AdvancedDaemonSets, eventually, type DaemonSet, type Pod };
export const IMG1 = 'nginx:1.25-alpine';
export const IMG2 = 'nginx:1.26-alpine';
export const IMG3 = 'nginx:1.27-alpine';

/** node-a..node-d of docs/design/advanced-daemonset.md §11. */
export const node = { a: 'kruise-node-0', b: 'kruise-node-1', c: 'kruise-node-2', d: 'kruise-node-3' } as const;
export const allNodes = Object.values(node);

type Obj = Record<string, unknown>;

export function startDaemonSetEnv(options: Partial<WorkloadEnvOptions> = {}): Promise<WorkloadEnv> {
  return startWorkloadEnv({
    nodes: 4, ...options, controllers: (m) => { setupAdvancedDaemonSetController(m); setupPodReadinessController(m); },
  });
}

/** An `around` hook that reports each pod delete the manager sends. */
export const onPodDelete = (hook: (namespace: string, name: string) => void): Around => (call, send) => {
  if (isPodCall(call) && call.verb === 'delete') hook(call.namespace ?? '', call.name);
  return send();
};

/** Kills the manager (its calls fail from now on) and starts a fresh one with an empty cache. */
export const crashManager = (w: WorkloadEnv): Promise<void> => w.restartManager({ crash: true, downMs: 100 });

export async function createNamespace(client: Client, name: string): Promise<string> {
  await client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

/** `ADS` of docs/design/advanced-daemonset.md §11 named `name` in `ns` (selector and template label `app: name`) with spec overrides. */
export function ads(ns: string, name: string, spec: Obj = {}, podSpec: Obj = {}): DaemonSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'agent', image: IMG1 }], ...podSpec } },
      ...spec,
    },
  } as DaemonSet;
}

export const getAds = (client: Client, ns: string, name: string) => client.get<DaemonSet>(AdvancedDaemonSets, ns, name);
export const patchAds = (client: Client, ns: string, name: string, spec: Obj) => client.patch<DaemonSet>(AdvancedDaemonSets, ns, name, 'merge', { spec });
export const setImage = (client: Client, ns: string, name: string, image: string) =>
  patchAds(client, ns, name, { template: { spec: { containers: [{ name: 'agent', image }] } } });
export const rollingUpdate = (client: Client, ns: string, name: string, ru: Obj) => patchAds(client, ns, name, { updateStrategy: { rollingUpdate: ru } });

export { isLive };
export const livePods = liveAppPods;

export const condition = (pod: Pod, type: string): PodCondition | undefined => pod.status?.conditions?.find((c) => c.type === type);
export const isPodReady = (pod: Pod): boolean => condition(pod, 'Ready')?.status === 'True';
export const revisionOf = (pod: Pod): string | undefined => pod.metadata.labels?.['controller-revision-hash'];
export const nodeOf = (pod: Pod): string | undefined => pod.spec.nodeName as string | undefined;
export const restartsOf = (pod: Pod): number | undefined => pod.status?.containerStatuses?.[0]?.restartCount;
/** Node → pod of the live pods (asserting one per node). */
export function byNode(pods: Pod[]): Map<string, Pod> {
  const out = new Map<string, Pod>();
  for (const p of pods) {
    const n = nodeOf(p) ?? '';
    assert.ok(!out.has(n), `two live pods on ${n}`);
    out.set(n, p);
  }
  return out;
}

export interface SettleOptions {
  /** Desired node count (default 4). */
  desired?: number;
  /** Updated count (default desired). */
  updated?: number;
  notRevision?: string;
  timeoutMs?: number;
}

/** observedGeneration caught up, `desired` bound, ready, available live pods (one per node), `updated` on updateRevision. */
export async function settled(client: Client, ns: string, name: string, o: SettleOptions = {}): Promise<DaemonSet> {
  const desired = o.desired ?? 4;
  const updated = o.updated ?? desired;
  return eventually(`ADS ${ns}/${name} settled: ${desired} pods, ${updated} updated`, async () => {
    const ds = await getAds(client, ns, name);
    const s = ds.status;
    if (!s || s.observedGeneration !== ds.metadata.generation) return undefined;
    if (o.notRevision !== undefined && s.updateRevision === o.notRevision) return undefined;
    if (s.desiredNumberScheduled !== desired || s.currentNumberScheduled !== desired || s.numberReady !== desired) return undefined;
    if (s.numberAvailable !== desired || s.updatedNumberScheduled !== updated || s.numberMisscheduled !== 0) return undefined;
    const pods = await livePods(client, ns, name);
    if (pods.length !== desired || !pods.every((p) => nodeOf(p) && isPodReady(p))) return undefined;
    return pods.filter((p) => revisionOf(p) === s.updateRevision).length === updated ? ds : undefined;
  }, o.timeoutMs ?? 40_000);
}

export async function revisionNames(client: Client, ns: string, name: string): Promise<string[]> {
  const list = await client.list(ControllerRevisions, { namespace: ns });
  return list.items.filter((r) => r.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === name))
    .map((r) => r.metadata.name!).sort();
}

export async function labelNode(client: Client, name: string, labels: Record<string, string | null>): Promise<void> {
  await client.patch(Nodes, undefined, name, 'merge', { metadata: { labels } });
}

interface NodeObj {
  metadata: { name?: string; resourceVersion?: string };
  spec?: { taints?: Taint[] };
  [k: string]: unknown;
}

/** Adds (or with `remove`, removes) a taint by key and effect. */
export async function taintNode(client: Client, name: string, taint: Taint, remove = false): Promise<void> {
  const n = await client.get<NodeObj>(Nodes, undefined, name);
  const others = (n.spec?.taints ?? []).filter((t) => !(t.key === taint.key && t.effect === taint.effect));
  await client.patch(Nodes, undefined, name, 'merge', { spec: { taints: remove ? others : [...others, taint] } });
}

/** Pods of one app kept current by a watch; `check` runs on the live and all pods after every event. */
export const watchPods = (client: Client, ns: string, app: string, check: (live: Pod[], all: Pod[]) => string | undefined): Promise<PodWatch> =>
  watchAppPods(client, ns, app, (s) => check(s.live, s.all));

export type { PodWatch };
export const assertNoViolation = (w: PodWatch): void => assert.equal(w.violation(), undefined);
