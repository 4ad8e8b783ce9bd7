/**
 * The daemon's image puller (gate KruiseDaemon): watches its own NodeImage only (field selector
 * `metadata.name=<node>`), pulls through the node runtime's CRI ImageService with credentials
 * from the daemon config namespace, and reports each task in the NodeImage status.
 * docs/design/image-pulling.md §6.
 */
import { NodeImages } from '../../api/kruise/resource-types.js';
import type { NodeImageObject } from '../../control/imagejob/index.js';
import type { DaemonContext, DaemonControllerRegistration } from '../controllers.js';
import { PullCredentials } from './credentials.js';
import { NodePuller } from './puller.js';
import { ImagePullerReconciler } from './reconcile.js';
import { PullSlots } from './slots.js';

export const imagePullerName = 'imagepuller';

export function setupImagePuller(ctx: DaemonContext): void {
  const { mgr, nodeName } = ctx;
  let enqueue = () => undefined as void;
  const puller = new NodePuller({
    images: ctx.runtimes.images, clock: mgr.clock, slots: new PullSlots(ctx.maxWorkersForPullImage),
    credentials: new PullCredentials({ client: mgr.client, clock: mgr.clock }), events: mgr.eventRecorder('kruise-daemon-imagepuller'),
    changed: () => enqueue(),
  });
  const controller = mgr.controllerFor<{ nodeImages: NodeImageObject }>(imagePullerName, { workers: 1 })
    .for('nodeImages', NodeImages, { selection: { fieldSelector: `metadata.name=${nodeName}` } })
    .complete(({ informers, client }) => new ImagePullerReconciler({ client, nodeImages: informers.nodeImages, puller }));
  enqueue = () => controller.enqueue({ name: nodeName });
}

export const imagePullerRegistration: DaemonControllerRegistration = {
  name: imagePullerName,
  enabled: (gate) => gate('KruiseDaemon'),
  setup: setupImagePuller,
};
