/**
 * The BroadcastJob test bench: the workload kit (simulated nodes kruise-node-0..N-1, scheduler,
 * built-in controllers, webhooks over HTTPS) with broadcastjob-controller, a namespace `t`, and
 * helpers to build manifests and read jobs, pods and events back through the API.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Events, Namespaces, Pods } from '../../api/resource-type.js';
import { setupBroadcastJobController } from '../../controllers/broadcastjob/index.js';
import type { BroadcastJob } from '../../controllers/broadcastjob/types.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export type { BroadcastJob };
export const ns = 't';

export async function startBcjEnv(o: Partial<Omit<WorkloadEnvOptions, 'controllers'>> = {}): Promise<WorkloadEnv> {
  const w = await startWorkloadEnv({ nodes: 3, ...o, controllers: (m) => { setupBroadcastJobController(m); } });
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  return w;
}

type Spec = Record<string, unknown>;

/** The spec's base manifest `bcj-ok` (restartPolicy Never, `exit 0`), with `spec` laid over it. */
export function bcj(name: string, spec: Spec = {}, command = 'exit 0', apiVersion = 'apps.kruise.io/v1beta1'): BroadcastJob {
  const podSpec = { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox:1.36', command: ['sh', '-c', command] }], ...(spec.podSpec as Spec | undefined) };
  const { podSpec: _omit, ...rest } = spec;
  return { apiVersion, kind: 'BroadcastJob', metadata: { name, namespace: ns }, spec: { template: { spec: podSpec }, ...rest } } as unknown as BroadcastJob;
}

export const getJob = (w: WorkloadEnv, name: string) => w.client.get<BroadcastJob>(BroadcastJobs, ns, name);

export async function waitJob(w: WorkloadEnv, name: string, done: (j: BroadcastJob) => boolean, what: string, ms = 30_000): Promise<BroadcastJob> {
  return eventually(`${name}: ${what}`, async () => {
    const j = await getJob(w, name);
    return done(j) ? j : undefined;
  }, ms);
}

export const phaseIs = (phase: string) => (j: BroadcastJob) => j.status?.phase === phase;

export async function jobPods(w: WorkloadEnv, name: string): Promise<Pod[]> {
  return (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `broadcastjob-name=${name}` })).items;
}

/** Pods neither finished nor being deleted. */
export const running = (pods: Pod[]) => pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !p.metadata.deletionTimestamp);

export async function eventsAbout(w: WorkloadEnv, name: string): Promise<{ reason?: string; message?: string }[]> {
  const list = await w.client.list<KObject & { reason?: string; message?: string; involvedObject?: { kind?: string; name?: string } }>(Events, { namespace: ns });
  return list.items.filter((e) => e.involvedObject?.kind === 'BroadcastJob' && e.involvedObject.name === name).map((e) => ({ reason: e.reason, message: e.message }));
}

/** The counters of the status, for one deepEqual. */
export const counters = (j: BroadcastJob) => ({
  desired: j.status?.desired, active: j.status?.active, succeeded: j.status?.succeeded, failed: j.status?.failed, phase: j.status?.phase,
});
