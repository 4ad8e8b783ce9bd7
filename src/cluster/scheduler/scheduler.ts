/**
 * The scheduling loop. Informers keep the cache (nodes, bound pods) and feed pending pods to the
 * queue. One pod at a time: decide synchronously on the cache, assume the pod onto the chosen
 * node, and bind in the background (up to `parallelism` API writes in flight) while the next pod
 * is decided, as kube-scheduler's scheduling and binding cycles do. A pod that fits nowhere gets a
 * PodScheduled=False condition and a FailedScheduling event, and parks in the queue.
 */
import { objectKey, type KObject } from '../../api/meta.js';
import { Namespaces, Nodes, PersistentVolumeClaims, PersistentVolumes, Pods, StorageClasses } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound, StatusError } from '../../machinery/errors.js';
import type { Logger } from '../../machinery/log.js';
import type { Clock } from '../../machinery/clock.js';
import type { Informer } from '../../runtime/informer.js';
import type { SharedInformerFactory } from '../../runtime/informer-factory.js';
import { SchedulerCache } from './cache.js';
import { isResponsible, namespaceHandler, nodeHandler, podHandler } from './cluster-events.js';
import { EventRecorder } from './event-recorder.js';
import { findNode } from './find-node.js';
import { InFlight } from './in-flight.js';
import { podSensitive, preFilterMessage } from './fit-error.js';
import { postBinding, writeUnschedulable } from './pod-status.js';
import type { Random } from './rng.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { VolumeBinding, type VolumeFilterState } from './volume-binding.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/core/index.js';

export interface SchedulerConfig {
  client: Client;
  clock: Clock;
  name: string;
  parallelism: number;
  log: Logger;
  random: Random;
  percentageOfNodesToScore: number;
  factory: SharedInformerFactory;
  /** The factory is ours to start and stop. */
  ownsFactory: boolean;
  queue?: Partial<ConstructorParameters<typeof SchedulingQueue>[0]>;
}

export interface SchedulerStats {
  scheduled: number;
  unschedulable: number;
  bindFailures: number;
  parked: number;
}

/** Only non-terminal pods occupy nodes, so only those are watched (kube-scheduler's selection). */
const POD_FIELD_SELECTOR = 'status.phase!=Succeeded,status.phase!=Failed';

export class Scheduler {
  private readonly cache: SchedulerCache;
  private readonly queue: SchedulingQueue;
  private readonly events: EventRecorder;
  private readonly pods: Informer<Pod>;
  private readonly informers: Informer<KObject>[];
  private readonly inFlight: InFlight;
  private readonly volumes: VolumeBinding;
  private stopping = false;
  private readonly unsubscribe: (() => void)[] = [];
  private nextStart = 0;
  private loop?: Promise<void>;
  private readonly counts = { scheduled: 0, unschedulable: 0, bindFailures: 0 };

  constructor(private readonly config: SchedulerConfig) {
    const { factory, clock } = config;
    const namespaces = factory.informerFor(Namespaces);
    this.cache = new SchedulerCache((ns) => namespaces.get(undefined, ns)?.metadata.labels);
    this.queue = new SchedulingQueue({ clock, ...config.queue });
    this.events = new EventRecorder({ client: config.client, clock, component: config.name, log: config.log });
    this.inFlight = new InFlight(config.parallelism);
    const nodes = factory.informerFor<Node>(Nodes);
    this.pods = factory.informerFor<Pod>(Pods, { fieldSelector: POD_FIELD_SELECTOR });
    const claims = factory.informerFor<PersistentVolumeClaim>(PersistentVolumeClaims);
    const pvs = factory.informerFor<PersistentVolume>(PersistentVolumes);
    const classes = factory.informerFor<StorageClass>(StorageClasses);
    this.volumes = new VolumeBinding(claims, pvs, classes);
    this.informers = [nodes, this.pods, namespaces, claims, pvs, classes] as Informer<KObject>[];
    // a claim or volume that changes may make a parked pod schedulable (docs/design/storage-provisioning.md §4)
    const volumeEvent = () => { this.volumes.claimChanged(); this.queue.moveParked(); };
    const volumeHandler = { onAdd: volumeEvent, onUpdate: volumeEvent, onDelete: volumeEvent };
    this.unsubscribe.push(
      nodes.addEventHandler(nodeHandler(this.cache, this.queue)),
      this.pods.addEventHandler(podHandler(this.cache, this.queue, config.name)),
      namespaces.addEventHandler(namespaceHandler(this.queue)),
      claims.addEventHandler(volumeHandler),
      pvs.addEventHandler(volumeHandler),
    );
  }

  async start(): Promise<void> {
    if (this.loop) return;
    if (this.config.ownsFactory) this.config.factory.start();
    for (const i of this.informers) i.start();
    const synced = await Promise.all(this.informers.map((i) => i.waitForSync()));
    if (!synced.every(Boolean)) throw new Error('scheduler informers stopped before they synced');
    this.config.log.info({ nodes: this.cache.nodes.length }, 'scheduler started');
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    this.stopping = true;
    this.volumes.wakeAll();
    this.inFlight.openAll();
    await this.loop;
    await this.inFlight.drain();
    await this.events.flush();
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.config.ownsFactory) this.config.factory.stop();
  }

  stats(): SchedulerStats {
    return { ...this.counts, parked: this.queue.parkedCount() };
  }

  private async run(): Promise<void> {
    for (;;) {
      await this.inFlight.slot();
      const key = await this.queue.get();
      if (key === undefined) return;
      try {
        this.scheduleOne(key);
      } catch (e) {
        this.config.log.error({ err: e, pod: key }, 'scheduling cycle failed');
        this.queue.failed(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  /** One scheduling cycle; synchronous, so the cache cannot change under the decision. */
  private scheduleOne(key: string): void {
    const slash = key.indexOf('/');
    const pod = this.pods.get(key.slice(0, slash), key.slice(slash + 1));
    if (!pod || !isResponsible(pod, this.config.name)) return this.queue.forget(key);
    if (this.cache.isAssumed(key)) return; // its binding is still in flight
    const volumes = this.volumes.prepare(pod);
    if (typeof volumes === 'string') {
      this.counts.unschedulable++;
      this.queue.unschedulable(key, false);
      return this.reportUnschedulable(pod, preFilterMessage(this.cache.nodes.length, volumes));
    }
    const result = findNode(pod, this.cache, { random: this.config.random, percentageOfNodesToScore: this.config.percentageOfNodesToScore, start: this.nextStart, volumes });
    this.nextStart = result.nextStart;
    if (result.node === undefined) {
      this.counts.unschedulable++;
      this.queue.unschedulable(key, podSensitive(result.statuses.values()));
      return this.reportUnschedulable(pod, result.message);
    }
    this.cache.assume(pod, result.node);
    this.track(this.bind(pod, result.node, volumes));
  }

  /** The binding cycle, in the background: on failure the reservation is dropped and the pod retried. */
  private async bind(pod: Pod, node: string, volumes: VolumeFilterState | undefined): Promise<void> {
    const key = objectKey(pod);
    try {
      if (volumes?.delayed.length) await this.volumes.preBind(this.config.client, volumes, node, () => this.stopping);
      await postBinding(this.config.client, pod, node);
      this.counts.scheduled++;
      this.queue.forget(key);
      this.events.record(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${key} to ${node}`);
    } catch (e) {
      this.cache.forget(key);
      // Gone, or bound by someone else: the informer will tell; nothing to retry.
      if (isNotFound(e) || (e instanceof StatusError && e.code === 409)) return this.queue.forget(key);
      this.counts.bindFailures++;
      this.config.log.info({ err: e, pod: key, node }, 'binding failed');
      this.queue.failed(key);
      this.events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', `Binding rejected: ${(e as Error).message}`);
    }
  }

  private reportUnschedulable(pod: Pod, message: string): void {
    this.config.log.debug({ pod: objectKey(pod), message }, 'pod is unschedulable');
    this.events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
    const write = writeUnschedulable(this.config.client, pod, message, this.config.clock.now());
    this.track(write?.then(
      () => undefined,
      (e: unknown) => { if (!isNotFound(e)) this.config.log.info({ err: e, pod: objectKey(pod) }, 'could not update pod condition'); },
    ));
  }

  private track(p: Promise<void> | undefined): void {
    if (p) this.inFlight.add(p);
  }
}
