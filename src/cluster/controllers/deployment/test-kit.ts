/**
 * Test helpers for the Deployment controller's integration tests: an embedded control plane
 * running the ReplicaSet and Deployment controllers plus a pod finalizer, deployment builders,
 * and `settle`, which waits until every controller has caught up and nothing moves any more.
 */
import { Deployments, ReplicaSets } from '../../../api/resource-type.js';
import { deepEqual } from '../../../machinery/deep-equal.js';
import { setupReplicaSetController } from '../replicaset/index.js';
import { isPodReady } from '../../../control/podutil/index.js';
import { activePods, eventually, listPods, podFinalizer, readyAllPods, startControllerTestEnv, type ControllerTestEnv, type TestPlane } from '../../../testing/controller-env.js';
import { setupDeploymentController } from './index.js';
import type { Deployment, DeploymentStatus, ReplicaSet } from '../../../api/core/index.js';
import { compareStrings } from '../../../machinery/order.js';

export const ns = 'default';

/** `cp` comes from testing/control-plane's startTestControlPlane(), which only test files may import. */
export async function startDeploymentCluster(cp: TestPlane): Promise<ControllerTestEnv> {
  const env = await startControllerTestEnv(cp, (mgr) => {
    setupReplicaSetController(mgr);
    setupDeploymentController(mgr);
  });
  const finalizer = podFinalizer(env.client, ns);
  return { ...env, stop: async () => { finalizer.stop(); await env.stop(); } };
}

export function deploymentOf(name: string, replicas: number, image: string, strategy: NonNullable<Deployment['spec']>['strategy'] = {}): Deployment {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns },
    spec: {
      replicas, strategy, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
    },
  };
}

export interface ClusterState {
  deployment: DeploymentStatus;
  replicaSets: { name: string; image: string; spec: number; revision?: string }[];
  /** Active pods: total, ready, and by image. */
  pods: number;
  ready: number;
  byImage: Record<string, { total: number; ready: number }>;
}

async function snapshot(env: ControllerTestEnv, app: string): Promise<{ state: ClusterState; consistent: boolean }> {
  const d = await env.client.get<Deployment>(Deployments, ns, app);
  const rsList = (await env.client.list<ReplicaSet>(ReplicaSets, { namespace: ns, labelSelector: `app=${app}` })).items;
  const all = await listPods(env.client, ns, `app=${app}`);
  const pods = activePods(all);
  const imageOf = (p: { spec?: { containers?: { image?: string }[] } }) => p.spec?.containers?.[0]?.image ?? '';
  const byImage: ClusterState['byImage'] = {};
  for (const p of pods) {
    const e = (byImage[imageOf(p)] ??= { total: 0, ready: 0 });
    e.total++;
    if (isPodReady(p)) e.ready++;
  }
  const rsConsistent = rsList.every((rs) => {
    const mine = pods.filter((p) => p.metadata.ownerReferences?.[0]?.uid === rs.metadata.uid);
    return rs.status?.observedGeneration === rs.metadata.generation && (rs.status?.replicas ?? 0) === (rs.spec?.replicas ?? 0)
      && mine.length === rs.spec?.replicas && (rs.status?.readyReplicas ?? 0) === mine.filter(isPodReady).length;
  });
  // The deployment has synced since the ReplicaSets last reported: its counts are their sums.
  const sum = (f: (rs: ReplicaSet) => number | undefined) => rsList.reduce((n, rs) => n + (f(rs) ?? 0), 0);
  const deploymentCaughtUp = (d.status?.replicas ?? 0) === sum((rs) => rs.status?.replicas)
    && (d.status?.readyReplicas ?? 0) === sum((rs) => rs.status?.readyReplicas)
    && (d.status?.availableReplicas ?? 0) === sum((rs) => rs.status?.availableReplicas);
  const consistent = rsConsistent && deploymentCaughtUp && all.length === pods.length && (d.status?.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
  const state: ClusterState = {
    deployment: d.status ?? {},
    replicaSets: rsList.map((rs) => ({
      name: rs.metadata.name!, image: imageOf(rs.spec?.template ?? {}), spec: rs.spec?.replicas ?? 0,
      revision: rs.metadata.annotations?.['deployment.kubernetes.io/revision'],
    })).sort((a, b) => compareStrings(a.name, b.name)),
    pods: pods.length, ready: pods.filter(isPodReady).length, byImage,
  };
  return { state, consistent };
}

/** Waits until the controllers agree with the pods and nothing has changed for `quietMs`. */
export async function settle(env: ControllerTestEnv, app: string, quietMs = 150): Promise<ClusterState> {
  let previous: ClusterState | undefined;
  return eventually(`${app} to settle`, async () => {
    const { state, consistent } = await snapshot(env, app);
    const stable = consistent && previous !== undefined && deepEqual(previous, state);
    previous = consistent ? state : undefined;
    if (!stable) await new Promise((r) => setTimeout(r, quietMs));
    return stable ? state : undefined;
  }, 15_000);
}

export const complete = (s: ClusterState, replicas: number): boolean =>
  s.deployment.updatedReplicas === replicas && s.deployment.replicas === replicas && s.deployment.availableReplicas === replicas;

/** Keeps making every pod of `app` ready, as a healthy kubelet would, until stopped. */
export function autoReady(env: ControllerTestEnv, app: string): { stop(): Promise<void> } {
  let running = true;
  const loop = (async () => {
    while (running) {
      await readyAllPods(env.client, ns, `app=${app}`).catch(() => 0); // pods vanish under us: try again
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return { stop: async () => { running = false; await loop; } };
}

/** Waits for a finished rollout of `app` at `replicas`, pods kept ready meanwhile. */
export async function rolledOut(env: ControllerTestEnv, app: string, replicas: number): Promise<ClusterState> {
  const kubelet = autoReady(env, app);
  try {
    return await eventually(`${app} rolled out`, async () => {
      const s = await settle(env, app);
      return complete(s, replicas) && s.pods === replicas ? s : undefined;
    }, 15_000);
  } finally {
    await kubelet.stop();
  }
}
