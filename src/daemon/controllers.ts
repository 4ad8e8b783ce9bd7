/**
 * The daemon's controllers, each behind its feature gate (upstream's pkg/daemon): registered
 * explicitly, no import side effects. Each folder under src/daemon is one of them.
 */
import type { Logger } from '../machinery/log.js';
import type { Manager } from '../runtime/manager.js';
import { setupPodProbeController } from './podprobe/index.js';
import type { ProbeNetwork } from './podprobe/network.js';
import type { RuntimeRegistry } from './runtime/registry.js';
import { setupContainerMetaController } from './containermeta/index.js';
import { setupContainerRecreateController } from './containerrecreate/index.js';
import { imagePullerRegistration } from './imagepuller/index.js';

/** What a daemon controller gets to set itself up with. */
export interface DaemonContext {
  mgr: Manager;
  nodeName: string;
  runtimes: RuntimeRegistry;
  gate: (name: string) => boolean;
  log: Logger;
  maxWorkersForPullImage: number;
  /** How probes reach pods (the host's network, or the simulated nodes'). */
  network: ProbeNetwork;
}

export interface DaemonControllerRegistration {
  name: string;
  enabled(gate: (name: string) => boolean): boolean;
  setup(ctx: DaemonContext): void;
}

export const daemonControllers: DaemonControllerRegistration[] = [
  { name: 'containermeta', enabled: (gate) => gate('DaemonWatchingPod'), setup: (ctx) => { setupContainerMetaController(ctx); } },
  { name: 'containerrecreate', enabled: (gate) => gate('KruiseDaemon'), setup: (ctx) => { setupContainerRecreateController(ctx); } },
  { name: 'pod-probe-controller', enabled: (gate) => gate('PodProbeMarkerGate') && gate('KruiseDaemon'), setup: (ctx) => { setupPodProbeController(ctx); } },
  imagePullerRegistration,
];
