/**
 * The image-pulling test bench: the workload kit with one kruise-daemon per simulated node, the
 * NodeImage controller creating NodeImages at once (no 30 s Ready delay) and the job controllers.
 */
import type { KObject } from '../../api/meta.js';
import { Events, Namespaces } from '../../api/resource-type.js';
import { ImagePullJobs, NodeImages } from '../../api/kruise/resource-types.js';
import type { ImagePullJobObject, NodeImageObject } from '../../control/imagejob/index.js';
import { setupImageListPullJobController } from '../../controllers/imagelistpulljob/index.js';
import { setupImagePullJobController } from '../../controllers/imagepulljob/index.js';
import { setupNodeImageController } from '../../controllers/nodeimage/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv, type WorkloadEnvOptions } from '../../testing/workload-env.js';

export type ImageEnvOptions = Partial<Omit<WorkloadEnvOptions, 'controllers'>>;

export async function startImageEnv(o: ImageEnvOptions = {}): Promise<WorkloadEnv> {
  const w = await startWorkloadEnv({
    nodes: 2, gates: 'ImagePullJobGate=true', ...o, daemons: true,
    controllers: (m) => {
      setupNodeImageController(m, { creationDelayMs: 0 });
      setupImagePullJobController(m);
      setupImageListPullJobController(m);
    },
  });
  await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 't' } });
  const nodes = w.nodes().nodeNames();
  await eventually('a NodeImage per node', async () => (await w.client.list(NodeImages)).items.length === nodes.length, 30_000);
  return w;
}

export const nodeNames = (w: WorkloadEnv): string[] => w.nodes().nodeNames().sort();

export function pullJob(name: string, spec: Record<string, unknown>): ImagePullJobObject {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', metadata: { name, namespace: 't' }, spec: spec as ImagePullJobObject['spec'] };
}

export const getJob = (w: WorkloadEnv, name: string) => w.client.get<ImagePullJobObject>(ImagePullJobs, 't', name);
export const getNodeImage = (w: WorkloadEnv, name: string) => w.client.get<NodeImageObject>(NodeImages, undefined, name);

export async function waitJob(w: WorkloadEnv, name: string, done: (j: ImagePullJobObject) => boolean, what = 'job state', ms = 30_000): Promise<ImagePullJobObject> {
  return eventually(`${name}: ${what}`, async () => {
    const j = await getJob(w, name);
    return done(j) ? j : undefined;
  }, ms);
}

/** Reasons and messages of the events about an object. */
export async function eventsAbout(w: WorkloadEnv, obj: { kind: string; name: string; namespace?: string }): Promise<{ reason?: string; message?: string }[]> {
  const list = await w.client.list<KObject & { reason?: string; message?: string; involvedObject?: { kind?: string; name?: string } }>(Events, obj.namespace ? { namespace: obj.namespace } : {});
  return list.items.filter((e) => e.involvedObject?.kind === obj.kind && e.involvedObject.name === obj.name).map((e) => ({ reason: e.reason, message: e.message }));
}

/** Phases a tag went through on a node, as seen by polling its NodeImage (for "Pulling then Succeeded"). */
export function watchPhases(w: WorkloadEnv, node: string, image: string, tag: string): { phases: string[]; stop(): void } {
  const phases: string[] = [];
  let on = true;
  void (async () => {
    while (on) {
      const st = (await getNodeImage(w, node).catch(() => undefined))?.status?.imageStatuses?.[image]?.tags.find((t) => t.tag === tag);
      if (st && phases.at(-1) !== st.phase) phases.push(st.phase);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return { phases, stop: () => { on = false; } };
}
