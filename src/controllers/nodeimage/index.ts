/**
 * Registration of nodeimage-controller (needs only KruiseDaemon): keyed by node name, woken by its
 * Node, by its NodeImage and by deleted ImagePullJobs (whose tags it then drops).
 * docs/design/image-pulling.md §3.
 */
import type { Node, Secret } from '../../api/core/index.js';
import type { ImagePullJobObject as ImagePullJob, NodeImageObject as NodeImage } from '../../control/imagejob/index.js';
import { ImagePullJobs, NodeImages } from '../../api/kruise/resource-types.js';
import { Nodes, Secrets } from '../../api/resource-type.js';
import type { Controller } from '../../runtime/controller.js';
import type { Manager } from '../../runtime/manager.js';
import { NodeImageReconciler } from './reconcile.js';

export { NodeImageReconciler } from './reconcile.js';
export const nodeImageControllerName = 'nodeimage-controller';

export interface NodeImageControllerOptions {
  /** `--nodeimage-creation-delay` (default 30 s). */
  creationDelayMs?: number;
}

interface Caches { nodeImages: NodeImage; nodes: Node; jobs: ImagePullJob; secrets: Secret }

export function setupNodeImageController(mgr: Manager, options: NodeImageControllerOptions = {}): Controller {
  const byName = (o: { metadata: { name?: string } }) => [{ name: o.metadata.name! }];
  return mgr.controllerFor<Caches>(nodeImageControllerName, { workers: 4 })
    .for('nodeImages', NodeImages)
    .watches('nodes', Nodes, () => byName)
    .watches('jobs', ImagePullJobs, ({ informers }) => ({ onDelete: () => informers.nodeImages.list().map(byName).flat() }))
    .reads('secrets', Secrets)
    .complete(({ informers, client, events }) => new NodeImageReconciler({
      client, events, ...informers, creationDelayMs: options.creationDelayMs ?? 30_000,
    }));
}
