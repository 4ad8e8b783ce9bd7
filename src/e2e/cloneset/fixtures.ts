/**
 * Shared pieces of the CloneSet acceptance tests (docs/design/cloneset.md §13): the base manifest `CS`, a
 * workload env running the CloneSet and pod-readiness controllers, pod/status readers and a pod
 * watcher that checks a rollout invariant on every pod event (nothing between two polls is missed).
 */
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { ControllerRevisions } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { isLive, livePods as liveAppPods, watchPods as watchAppPods, type PodWatch } from '../../testing/pod-watch.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';
import type { Pod, PodCondition } from '../../api/core/index.js';

export { CloneSets, eventually, type CloneSet, type Pod };
export const ns = 'default';
export const IMG1 = 'nginx:1.25-alpine';
export const IMG2 = 'nginx:1.26-alpine';
export const idAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

type Obj = Record<string, unknown>;

export function startCloneSetEnv(options: Partial<WorkloadEnvOptions> = {}): Promise<WorkloadEnv> {
  return startWorkloadEnv({ ...options, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
}

/** `CS` of docs/design/cloneset.md §13 named `name` (selector and template label `app: name`) with spec overrides. */
export function cloneSet(name: string, spec: Obj = {}, podSpec: Obj = {}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
    spec: {
      replicas: 3, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: IMG1 }], ...podSpec } },
      ...spec,
    },
  } as CloneSet;
}

export const manifest = (obj: unknown): string => stringify(obj);

export const getCloneSet = (client: Client, name: string) => client.get<CloneSet>(CloneSets, ns, name);
export const patchCloneSet = (client: Client, name: string, spec: Obj) => client.patch<CloneSet>(CloneSets, ns, name, 'merge', { spec });
export const setImage = (client: Client, name: string, image: string) =>
  patchCloneSet(client, name, { template: { spec: { containers: [{ name: 'web', image }] } } });

export { isLive };
export const livePods = (client: Client, app: string): Promise<Pod[]> => liveAppPods(client, ns, app);

export const condition = (pod: Pod, type: string): PodCondition | undefined => pod.status?.conditions?.find((c) => c.type === type);
export const isPodReady = (pod: Pod): boolean => condition(pod, 'Ready')?.status === 'True';
export const revisionOf = (pod: Pod): string | undefined => pod.metadata.labels?.['controller-revision-hash'];
export const lifecycleOf = (pod: Pod): string | undefined => pod.metadata.labels?.['lifecycle.apps.kruise.io/state'];
export const restartsOf = (pod: Pod): number | undefined => pod.status?.containerStatuses?.[0]?.restartCount;
export const uids = (pods: Pod[]): Map<string, string> => new Map(pods.map((p) => [p.metadata.name!, p.metadata.uid!]));

/**
 * "Settled" of docs/design/cloneset.md §13: observedGeneration caught up, `replicas` live pods, all updated and available,
 * currentRevision == updateRevision; with `notRevision`, on an update revision other than that one.
 */
export async function settled(client: Client, name: string, replicas: number, options: { notRevision?: string; timeoutMs?: number } = {}): Promise<CloneSet> {
  const what = `CloneSet ${name} settled at ${replicas} updated pods${options.notRevision ? ` on a revision other than ${options.notRevision}` : ''}`;
  return eventually(what, async () => {
    const cs = await getCloneSet(client, name);
    const s = cs.status;
    if (!s || s.observedGeneration !== cs.metadata.generation || cs.spec?.replicas !== replicas) return undefined;
    if (options.notRevision !== undefined && s.updateRevision === options.notRevision) return undefined;
    if (s.replicas !== replicas || s.updatedAvailableReplicas !== replicas || s.availableReplicas !== replicas) return undefined;
    if (s.currentRevision !== s.updateRevision) return undefined;
    const pods = await livePods(client, name);
    return pods.length === replicas && pods.every((p) => revisionOf(p) === s.updateRevision) ? cs : undefined;
  }, options.timeoutMs ?? 40_000);
}

/** Waits for a CloneSet whose status has caught up with its spec and matches `check`. */
export function statusWhere(client: Client, name: string, what: string, check: (cs: CloneSet, pods: Pod[]) => boolean, timeoutMs = 40_000): Promise<CloneSet> {
  return eventually(`CloneSet ${name}: ${what}`, async () => {
    const cs = await getCloneSet(client, name);
    if (cs.status?.observedGeneration !== cs.metadata.generation) return undefined;
    return check(cs, await livePods(client, name)) ? cs : undefined;
  }, timeoutMs);
}

export async function revisionNames(client: Client, name: string): Promise<string[]> {
  const list = await client.list(ControllerRevisions, { namespace: ns });
  return list.items.filter((r) => r.metadata.ownerReferences?.some((o) => o.kind === 'CloneSet' && o.name === name))
    .map((r) => r.metadata.name!).sort();
}

/** Live pods of one app kept current by a watch; `check` runs on the live pods after every event. */
export const watchPods = (client: Client, app: string, check: (live: Pod[]) => string | undefined): Promise<PodWatch> =>
  watchAppPods(client, ns, app, (s) => check(s.live));

export type { PodWatch };
export const assertNoViolation = (w: PodWatch): void => assert.equal(w.violation(), undefined);
