/**
 * Registration of imagepulljob-controller (gate ImagePullJobGate): woken by its jobs, by NodeImage
 * changes (active jobs that may target the node), by pods (jobs selecting them through
 * podSelector) and by Secrets (jobs using them, as source or as copy).
 * docs/design/image-pulling.md §4.
 */
import type { Pod, Secret } from '../../api/core/index.js';
import { ImagePullSecretReferencesAnnotation } from '../../api/kruise/ops/imagepulljob.js';
import { ImagePullJobs, NodeImages } from '../../api/kruise/resource-types.js';
import { Pods, Secrets } from '../../api/resource-type.js';
import type { ImagePullJobObject, NodeImageObject } from '../../control/imagejob/index.js';
import { selectorFromLabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';
import type { Controller } from '../../runtime/controller.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { Manager } from '../../runtime/manager.js';
import { NodeImageWriter } from './node-image-writer.js';
import { PullSecretCopies } from './pull-secrets.js';
import { ImagePullJobReconciler } from './reconcile.js';
import { mayTarget } from './targets.js';

export const imagePullJobControllerName = 'imagepulljob-controller';

interface Caches { jobs: ImagePullJobObject; nodeImages: NodeImageObject; pods: Pod; secrets: Secret }

const keyOf = (j: ImagePullJobObject): Request => ({ namespace: j.metadata.namespace, name: j.metadata.name! });
const running = (jobs: Informer<ImagePullJobObject>) => jobs.list().filter((j) => !j.status?.completionTime);

export function setupImagePullJobController(mgr: Manager, options: { workers?: number; random?: () => number } = {}): Controller {
  return mgr.controllerFor<Caches>(imagePullJobControllerName, { workers: options.workers ?? 5 })
    .for('jobs', ImagePullJobs, { indexes: ['namespace'] })
    .watches('nodeImages', NodeImages, ({ informers }) => (ni) => running(informers.jobs).filter((j) => mayTarget(j, ni)).map(keyOf))
    .watches('pods', Pods, ({ informers }) => (pod) => informers.jobs.byIndex('namespace', pod.metadata.namespace!)
      .filter((j) => j.spec?.podSelector && !j.status?.completionTime && selectorFromLabelSelector(j.spec.podSelector as MetaLabelSelector).matches(pod.metadata.labels))
      .map(keyOf), { indexes: ['namespace'] })
    .watches('secrets', Secrets, ({ informers }) => (secret) => {
      const copyOf = (secret.metadata.annotations?.[ImagePullSecretReferencesAnnotation] ?? '').split(',').filter(Boolean)
        .map((k) => ({ namespace: k.split('/')[0], name: k.split('/')[1]! }));
      const users = informers.jobs.byIndex('namespace', secret.metadata.namespace!)
        .filter((j) => j.spec?.pullSecrets?.includes(secret.metadata.name!)).map(keyOf);
      return [...copyOf, ...users];
    }, { indexes: ['namespace'] })
    .complete(({ informers, client, expectations, events }) => new ImagePullJobReconciler({
      client, jobs: informers.jobs, nodeImages: informers.nodeImages, pods: informers.pods, events,
      secrets: new PullSecretCopies({ client, secrets: informers.secrets }), writes: expectations.updates,
      nodeImageWriter: new NodeImageWriter({ client, nodeImages: informers.nodeImages, random: options.random ?? Math.random }),
    }));
}
