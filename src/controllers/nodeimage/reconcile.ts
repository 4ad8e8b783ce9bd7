/**
 * nodeimage-controller: one NodeImage per Node, named after it (docs/design/image-pulling.md §3).
 * Created once the node has been Ready for the creation delay, deleted with the node (unless
 * labelled fake), its spec cleaned and its status checked for silent daemons on every pass.
 */
import type { Node, Secret } from '../../api/core/index.js';
import { FakeNodeImageLabel } from '../../api/kruise/ops/nodeimage.js';
import type { ImagePullJobObject as ImagePullJob, NodeImageObject as NodeImage } from '../../control/imagejob/index.js';
import { NodeImages } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../machinery/errors.js';
import { timeOf } from '../../machinery/time.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { Request } from '../../runtime/handlers.js';
import type { Informer } from '../../runtime/informer.js';
import type { ReconcileContext, Result } from '../../runtime/reconcile.js';
import { collectSpec } from './spec-gc.js';
import { checkStatus } from './status-timeouts.js';

export interface NodeImageDeps {
  client: Client;
  nodes: Informer<Node>;
  nodeImages: Informer<NodeImage>;
  jobs: Informer<ImagePullJob>;
  secrets: Informer<Secret>;
  events: EventRecorder;
  /** How long a node must have been Ready before its NodeImage is created (`--nodeimage-creation-delay`, 30 s). */
  creationDelayMs: number;
}

/** Requeue no sooner than this while timers run (upstream: 3-5 s). */
const minRequeueMs = 3_000;
const conflictRetryMs = 200;

export class NodeImageReconciler {
  constructor(private readonly d: NodeImageDeps) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    try {
      return await this.sync(ctx, req);
    } catch (e) {
      // the daemon or a job controller wrote meanwhile; their write's event brings us back
      if (isConflict(e)) return { requeueAfterMs: conflictRetryMs };
      throw e;
    }
  }

  private async sync(ctx: ReconcileContext, req: Request): Promise<Result | void> {
    const node = this.d.nodes.get(undefined, req.name);
    const nodeImage = this.d.nodeImages.get(undefined, req.name);
    if (!node || node.metadata.deletionTimestamp) {
      if (nodeImage && !nodeImage.metadata.labels?.[FakeNodeImageLabel]) await this.deleteNodeImage(nodeImage);
      return;
    }
    if (!nodeImage) return this.create(ctx, node);
    const now = ctx.clock.now();
    const { spec, nextTtlMs } = collectSpec(nodeImage, {
      jobUid: (ns, name) => this.d.jobs.get(ns, name)?.metadata.uid,
      secretExists: (ns, name) => this.d.secrets.get(ns, name) !== undefined,
    }, now);
    const labels = node.metadata.labels ?? {};
    let current = nodeImage;
    if (!deepEqual(spec, nodeImage.spec ?? {}) || !deepEqual(labels, nodeImage.metadata.labels ?? {})) {
      current = await this.d.client.update<NodeImage>(NodeImages, { ...nodeImage, metadata: { ...nodeImage.metadata, labels }, spec });
    }
    const { status, failed, nextTimeoutMs } = checkStatus(current, spec, now);
    if (!deepEqual(status, current.status ?? {})) {
      await this.d.client.updateStatus<NodeImage>(NodeImages, { ...current, status });
      for (const f of failed) this.reportFailure(current, f.tag.ownerReferences ?? [], `${f.name}:${f.tag.tag}`, f.message);
    }
    const next = Math.min(nextTtlMs ?? Infinity, nextTimeoutMs ?? Infinity);
    return next === Infinity ? undefined : { requeueAfterMs: Math.max(minRequeueMs, next) };
  }

  private async create(ctx: ReconcileContext, node: Node): Promise<Result | void> {
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready?.status !== 'True') return; // the next node event brings us back
    const readyFor = ctx.clock.now() - (timeOf(ready.lastTransitionTime) ?? 0);
    if (readyFor < this.d.creationDelayMs) return { requeueAfterMs: this.d.creationDelayMs - readyFor };
    const nodeImage: NodeImage = {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage',
      metadata: { name: node.metadata.name, labels: node.metadata.labels ?? {} }, spec: {},
    };
    try {
      await this.d.client.create(NodeImages, nodeImage);
      ctx.log.info('Created NodeImage for node');
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }

  private async deleteNodeImage(nodeImage: NodeImage): Promise<void> {
    try {
      await this.d.client.delete(NodeImages, undefined, nodeImage.metadata.name!, { preconditions: { uid: nodeImage.metadata.uid } });
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
  }

  private reportFailure(nodeImage: NodeImage, owners: NonNullable<NonNullable<NodeImage['spec']>['images']>[string]['tags'][number]['ownerReferences'] & object, image: string, message: string): void {
    const text = `Failed to pull image ${image} on node ${nodeImage.metadata.name}: ${message}`;
    this.d.events.event(nodeImage, 'Warning', 'PullImageFailed', text);
    for (const o of owners) {
      const job = o.kind === 'ImagePullJob' ? this.d.jobs.get(o.namespace, o.name ?? '') : undefined;
      if (job) this.d.events.event(job, 'Warning', 'PullImageFailed', text);
    }
  }
}
