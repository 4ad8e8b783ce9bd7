/**
 * Shared pieces of the Advanced StatefulSet acceptance tests (docs/design/advanced-statefulset.md §12): the base
 * manifest `STS`, a workload env running the ASTS and pod-readiness controllers, readers for pods
 * and status, and a pod watcher that checks an invariant on every pod event.
 */
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { AdvancedStatefulSets } from '../../api/kruise/resource-types.js';
import type { StatefulSet } from '../../api/kruise/workloads/statefulset.js';
import type { Client } from '../../client/client.js';
import { setupAdvancedStatefulSetController, type AdvancedStatefulSetOptions } from '../../controllers/statefulset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { kruiseFeatureGates } from '../../features/kruise.js';
import { isLive, livePods as liveAppPods, watchPods as watchAppPods, type PodEvent, type PodWatch } from '../../testing/pod-watch.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';
import type { Pod, PodCondition } from '../../api/core/index.js';

export { AdvancedStatefulSets, eventually, type StatefulSet, type Pod };
export const ns = 'default';
export const IMG1 = 'nginx:1.25-alpine';
export const IMG2 = 'nginx:1.26-alpine';
export const settleMs = 60_000;

type Obj = Record<string, unknown>;

export interface StatefulSetEnvOptions extends Partial<WorkloadEnvOptions> {
  controller?: AdvancedStatefulSetOptions;
}

/** An env whose webhooks and ASTS controller see the same gates. */
export function startStatefulSetEnv(options: StatefulSetEnvOptions = {}): Promise<WorkloadEnv> {
  const gates = kruiseFeatureGates(options.gates ?? '');
  return startWorkloadEnv({
    ...options,
    controllers: (m) => {
      setupAdvancedStatefulSetController(m, { gates: (g) => gates.enabled(g), ...options.controller });
      setupPodReadinessController(m);
    },
  });
}

/** `STS` of docs/design/advanced-statefulset.md §12 named `name` (selector and template label `app: name`), with spec and pod-spec overrides. */
export function sts(name: string, spec: Obj = {}, podSpec: Obj = {}): StatefulSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name, namespace: ns },
    spec: {
      replicas: 3, serviceName: name, selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'app', image: IMG1 }], ...podSpec },
      },
      ...spec,
    },
  } as StatefulSet;
}

/** A readiness probe the sim-kubelet honours as a per-pod readiness delay. */
export const readyAfterSeconds = (seconds: number): Obj => ({ exec: { command: ['true'] }, initialDelaySeconds: seconds });

export const manifest = (obj: unknown): string => stringify(obj);
export const getSet = (client: Client, name: string) => client.get<StatefulSet>(AdvancedStatefulSets, ns, name);
export const patchSpec = (client: Client, name: string, spec: Obj) => client.patch<StatefulSet>(AdvancedStatefulSets, ns, name, 'merge', { spec });
export const setImage = (client: Client, name: string, image: string, extra: Obj = {}) =>
  patchSpec(client, name, { template: { spec: { containers: [{ name: 'app', image, ...extra }] } } });

export { isLive };
export const ordinal = (pod: Pod): number => Number(/-(\d+)$/.exec(pod.metadata.name!)?.[1] ?? NaN);

/** Live pods of one app, by ordinal. */
export async function livePods(client: Client, app: string): Promise<Pod[]> {
  return (await liveAppPods(client, ns, app)).sort((a, b) => ordinal(a) - ordinal(b));
}

export const names = (pods: Pod[]): string[] => pods.map((p) => p.metadata.name!);
export const condition = (pod: Pod, type: string): PodCondition | undefined => pod.status?.conditions?.find((c) => c.type === type);
export const isPodReady = (pod: Pod): boolean => condition(pod, 'Ready')?.status === 'True';
export const revisionOf = (pod: Pod): string | undefined => pod.metadata.labels?.['controller-revision-hash'];
export const lifecycleOf = (pod: Pod): string | undefined => pod.metadata.labels?.['lifecycle.apps.kruise.io/state'];
export const uids = (pods: Pod[]): Map<string, string> => new Map(pods.map((p) => [p.metadata.name!, p.metadata.uid!]));

/**
 * Settled: observedGeneration caught up, `replicas` live Ready pods named as `expectNames` (when
 * given), all on the update revision, status counts equal, currentRevision == updateRevision.
 */
export async function settled(client: Client, name: string, replicas: number, options: { names?: string[]; timeoutMs?: number } = {}): Promise<StatefulSet> {
  return eventually(`StatefulSet ${name} settled at ${replicas}`, async () => {
    const set = await getSet(client, name);
    const s = set.status;
    if (!s || s.observedGeneration !== set.metadata.generation || set.spec?.replicas !== replicas) return undefined;
    if (s.replicas !== replicas || s.readyReplicas !== replicas || s.updatedReplicas !== replicas || s.currentReplicas !== replicas) return undefined;
    if (s.currentRevision !== s.updateRevision) return undefined;
    const pods = await livePods(client, name);
    if (options.names && names(pods).join() !== options.names.join()) return undefined;
    return pods.length === replicas && pods.every((p) => isPodReady(p) && revisionOf(p) === s.updateRevision) ? set : undefined;
  }, options.timeoutMs ?? settleMs);
}

/** Waits for a set whose status has caught up with its spec and matches `check`. */
export function statusWhere(client: Client, name: string, what: string, check: (set: StatefulSet, pods: Pod[]) => boolean, timeoutMs = settleMs): Promise<StatefulSet> {
  return eventually(`StatefulSet ${name}: ${what}`, async () => {
    const set = await getSet(client, name);
    if (set.status?.observedGeneration !== set.metadata.generation) return undefined;
    return check(set, await livePods(client, name)) ? set : undefined;
  }, timeoutMs);
}

/** All pods of one app (terminating included) kept current by a watch; `check` runs after every event. */
export const watchPods = (client: Client, app: string, check: (all: Pod[], event: PodEvent) => string | undefined = () => undefined): Promise<PodWatch> =>
  watchAppPods(client, ns, app, (s) => check(s.all, s.event));

export type { PodWatch };
export const assertNoViolation = (w: PodWatch): void => assert.equal(w.violation(), undefined);
