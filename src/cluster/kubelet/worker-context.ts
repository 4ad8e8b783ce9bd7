/**
 * What a pod worker needs from its node: the API client, the node's CRI services and event recorder,
 * the clock, the node's address, the shared ConfigMap and Secret caches and the simulation settings.
 */
import type { Client } from '../../client/client.js';
import type { ImageService, RuntimeService } from '../../daemon/cri/services.js';
import type { Logger } from '../../machinery/log.js';
import type { Clock } from '../../machinery/clock.js';
import type { EventRecorder } from '../../runtime/events.js';
import type { ConfigSources } from './config/config-sources.js';
import type { ReadinessOverrides, ReadinessPolicy } from './readiness.js';
import type { BehaviourResolver } from './behaviour/container-behaviour.js';

export interface WorkerContext {
  client: Client;
  runtime: RuntimeService & ImageService;
  /** The node's kubelet events (source component `kubelet`, host the node). */
  events: EventRecorder;
  configSources: ConfigSources;
  clock: Clock;
  log: Logger;
  nodeName: string;
  hostIP: string;
  runtimeName: string;
  readiness: ReadinessPolicy;
  overrides: ReadinessOverrides;
  /** Default time a container takes to exit after SIGTERM (Infinity: it is killed at the grace period). */
  terminationDelayMs: number;
  /** How long a terminated pod's cleanup takes before the kubelet removes it from the API (simulated-nodes.md §22). */
  podCleanupDelayMs: number;
  crashBackoff: { initialMs: number; maxMs: number };
  /** What each container does: its command read by the interpreter, the behaviour file, annotations. */
  behaviour: BehaviourResolver;
  /** Asks for another sync of the pod `namespace/name`. */
  enqueue(namespace: string, name: string): void;
}
