/**
 * The env-from-metadata end-to-end tests' pieces: a workload env with one simulated node, its
 * kruise-daemon and the CloneSet controller under the same gates; a CloneSet whose container reads
 * annotation `x` through an env fieldRef; readers of the runtime meta, the container's restart
 * count and the environment the runtime reports for the running container (ExecSync `env`).
 */
import type { KObject } from '../../api/meta.js';
import { AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { createInProcessClient } from '../../client/index.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { setupAdvancedStatefulSetController } from '../../controllers/statefulset/index.js';
import { readRuntimeMetaSet, type RuntimeContainerMetaSet } from '../../control/containermeta/index.js';
import { kruiseFeatureGates } from '../../features/kruise.js';
import { startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import { connectCri } from '../cri/grpc/client.js';
import { startNodeDaemons, type NodeDaemons } from '../node-daemons.js';
import type { Pod } from '../../api/core/index.js';

export const ns = 'default';
export const app = 'envmeta';

export async function startEnvMetaEnv(gates: string): Promise<WorkloadEnv> {
  const enabled = kruiseFeatureGates(gates);
  return startWorkloadEnv({
    nodes: 1, daemons: true, gates,
    controllers: (m) => {
      setupCloneSetController(m, { gates: (g) => enabled.enabled(g) });
      setupAdvancedStatefulSetController(m, { gates: (g) => enabled.enabled(g) });
      setupPodReadinessController(m);
    },
  });
}

/** A one-replica in-place CloneSet whose container `app` has X from annotation `x` and Y from label `y`. */
export function envCloneSet(x: string): KObject {
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: app, namespace: ns },
    spec: {
      replicas: 1, selector: { matchLabels: { app } },
      updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } },
      template: {
        metadata: { labels: { app, y: 'fixed' }, annotations: { x } },
        spec: {
          containers: [{
            name: 'app', image: 'nginx:1.25-alpine',
            env: [
              { name: 'X', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['x']" } } },
              { name: 'Y', valueFrom: { fieldRef: { fieldPath: "metadata.labels['y']" } } },
              { name: 'PLAIN', value: 'p' },
            ],
          }],
        },
      },
    },
  };
}

/** The same workload as an in-place Advanced StatefulSet (its template must carry the InPlaceUpdateReady gate). */
export function envStatefulSet(x: string): KObject {
  const cs = envCloneSet(x) as KObject & { spec: { template: { spec: Record<string, unknown> } } };
  return {
    ...cs, kind: 'StatefulSet',
    spec: { ...cs.spec, serviceName: app, template: { ...cs.spec.template, spec: { ...cs.spec.template.spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } } },
  };
}

export const setAnnotationX = (w: WorkloadEnv, x: string, kind: 'CloneSet' | 'StatefulSet' = 'CloneSet') =>
  w.client.patch(kind === 'CloneSet' ? CloneSets : AdvancedStatefulSets, ns, app, 'merge', { spec: { template: { metadata: { annotations: { x } } } } });

export async function onlyPod(w: WorkloadEnv): Promise<Pod | undefined> {
  const pods = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: `app=${app}` })).items.filter((p) => !p.metadata.deletionTimestamp);
  return pods.length === 1 ? pods[0] : undefined;
}

export const restartCountOf = (pod: Pod): number | undefined => pod.status?.containerStatuses?.[0]?.restartCount;
export const containerIdOf = (pod: Pod): string | undefined => pod.status?.containerStatuses?.[0]?.containerID;
export const conditionOf = (pod: Pod, type: string): string | undefined => pod.status?.conditions?.find((c) => c.type === type)?.status;
export const metaOf = (pod: Pod): RuntimeContainerMetaSet | undefined => readRuntimeMetaSet(pod);

/** The running container's environment as the node's runtime reports it over CRI. */
export async function runtimeEnv(w: WorkloadEnv, pod: Pod): Promise<Record<string, string>> {
  const cri = connectCri(w.nodes().criSocket(pod.spec.nodeName!)!);
  try {
    const id = containerIdOf(pod)!.replace(/^[^:]+:\/\//, '');
    const r = await cri.execSync!(id, ['env'], 3);
    const lines = new TextDecoder().decode(r.stdout).trim().split('\n');
    return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  } finally {
    cri.close();
  }
}

/** Starts kruise-daemons on the env's nodes again, after `w.daemons()!.stop()` (as a daemon pod restart would). */
export function startDaemons(w: WorkloadEnv, gates: string): Promise<NodeDaemons> {
  const enabled = kruiseFeatureGates(gates);
  return startNodeDaemons(createInProcessClient(w.env.plane.handler, undefined, 'kruise-daemon'), w.nodes(), (g) => enabled.enabled(g));
}
