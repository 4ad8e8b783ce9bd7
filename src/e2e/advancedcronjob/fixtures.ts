/**
 * The AdvancedCronJob test bench: the embedded control plane with Kruise and its webhooks, and a
 * manager running advancedcronjob-controller on a fake clock, which a test moves to fire times and
 * may restart (same clock, empty caches). No Job or BroadcastJob controller runs: tests finish
 * children by writing their status.
 */
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import { AdvancedCronJobs, BroadcastJobs } from '../../api/kruise/resource-types.js';
import { Jobs, Namespaces, type ResourceType } from '../../api/resource-type.js';
import { createInProcessClient } from '../../client/in-process-client.js';
import type { Client } from '../../client/client.js';
import { setupAdvancedCronJobController } from '../../controllers/advancedcronjob/index.js';
import type { AdvancedCronJob, Child } from '../../controllers/advancedcronjob/types.js';
import { FakeClock, flush } from '../../machinery/clock.js';
import { setRootLogger } from '../../machinery/log.js';
import { rfc3339 } from '../../machinery/time.js';
import { Manager } from '../../runtime/manager.js';
import { startKruiseTestEnv, type KruiseTestEnv } from '../../testing/kruise-env.js';

export type { AdvancedCronJob, Child };
export const ns = 't';
export const MINUTE = 60_000;

export interface AcjEnv {
  env: KruiseTestEnv;
  client: Client;
  clock: FakeClock;
  restartManager(whileDown?: () => void | Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export async function startAcjEnv(): Promise<AcjEnv> {
  if (!process.env.TEST_LOG) setRootLogger(pino({ level: 'silent' }));
  const env = await startKruiseTestEnv();
  await env.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const clock = new FakeClock(Math.floor(Date.now() / 1000) * 1000);
  const start = async () => {
    const mgr = new Manager({ client: createInProcessClient(env.plane.handler), clock, health: false, leaderElection: false, freezeCache: true });
    setupAdvancedCronJobController(mgr);
    await mgr.start();
    return mgr;
  };
  let mgr = await start();
  return {
    env, client: env.client, clock,
    async restartManager(whileDown) {
      await mgr.stop();
      await whileDown?.();
      mgr = await start();
    },
    async stop() {
      await mgr.stop();
      await env.stop();
    },
  };
}

type Spec = Record<string, unknown>;
const podTemplate = { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox:1.36', command: ['sh', '-c', 'exit 0'] }] } };

/** The spec's `acj-b` (every minute, a BroadcastJob template labelled from=acj), with `spec` laid over it. */
export function acjB(name: string, spec: Spec = {}): AdvancedCronJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name, namespace: ns },
    spec: { schedule: '*/1 * * * *', template: { broadcastJobTemplate: { metadata: { labels: { from: 'acj' } }, spec: { template: structuredClone(podTemplate) } } }, ...spec },
  } as AdvancedCronJob;
}

/** The same with a batch/v1 Job template. */
export function acjJob(name: string, spec: Spec = {}): AdvancedCronJob {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name, namespace: ns },
    spec: { schedule: '*/1 * * * *', template: { jobTemplate: { metadata: { labels: { from: 'acj-job' } }, spec: { template: structuredClone(podTemplate) } } }, ...spec },
  } as AdvancedCronJob;
}

export async function createAcj(w: AcjEnv, acj: AdvancedCronJob): Promise<{ acj: AdvancedCronJob; createdAt: number }> {
  const created = await w.client.create<AdvancedCronJob>(AdvancedCronJobs, acj);
  return { acj: created, createdAt: Date.parse(created.metadata.creationTimestamp!) };
}

export const getAcj = (w: AcjEnv, name: string) => w.client.get<AdvancedCronJob>(AdvancedCronJobs, ns, name);

/** The children of `acj` (not being deleted), oldest name first. */
export async function childrenOf(w: AcjEnv, acj: string, type: ResourceType = BroadcastJobs): Promise<Child[]> {
  const items = (await w.client.list<Child>(type, { namespace: ns })).items;
  return items.filter((c) => !c.metadata.deletionTimestamp && c.metadata.ownerReferences?.some((r) => r.kind === 'AdvancedCronJob' && r.name === acj))
    .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
}

/** The first minute boundary strictly after `t`. */
export const nextMinute = (t: number) => Math.floor(t / MINUTE) * MINUTE + MINUTE;

/** Moves the fake clock to `at` (never backwards) and lets the controller run. */
export async function advanceTo(w: AcjEnv, at: number): Promise<void> {
  w.clock.advance(Math.max(0, at - w.clock.now()));
  await flush();
}

/** Polls `check` on the real clock, nudging the fake clock by 1 ms per poll so back-offs still fire. */
export async function until<T>(w: AcjEnv, what: string, check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    w.clock.advance(1);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Lets the controller run for a while of real time without moving the fake clock much. */
export const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** Marks a child Complete (or Failed) through its status, with startTime `at`. */
export async function finishChild(w: AcjEnv, child: KObject, type: ResourceType, at: number, how: 'Complete' | 'Failed' = 'Complete'): Promise<void> {
  const t = rfc3339(at);
  const conditions = [{ type: how, status: 'True', lastProbeTime: t, lastTransitionTime: t, reason: how, message: how }];
  const status = type === Jobs
    ? { startTime: t, completionTime: t, succeeded: 1, conditions: how === 'Complete' ? [{ type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: t }, ...conditions] : [{ type: 'FailureTarget', status: 'True', lastTransitionTime: t }, ...conditions] }
    : { startTime: t, completionTime: t, phase: how === 'Complete' ? 'completed' : 'failed', conditions };
  await w.client.patch(type, ns, child.metadata.name!, 'merge', { status }, { subresource: 'status' });
}
