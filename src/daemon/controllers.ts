/**
 * The daemon's controllers, each behind its feature gate (upstream's pkg/daemon): registered
 * explicitly, no import side effects. Each folder under src/daemon is one of them.
 */
import type { Logger } from '../machinery/log.js';
import type { Manager } from '../runtime/manager.js';
import type { RuntimeRegistry } from './runtime/registry.js';
import { imagePullerRegistration } from './imagepuller/index.js';

/** What a daemon controller gets to set itself up with. */
export interface DaemonContext {
  mgr: Manager;
  nodeName: string;
  runtimes: RuntimeRegistry;
  gate: (name: string) => boolean;
  log: Logger;
  maxWorkersForPullImage: number;
}

export interface DaemonControllerRegistration {
  name: string;
  enabled(gate: (name: string) => boolean): boolean;
  setup(ctx: DaemonContext): void;
}

export const daemonControllers: DaemonControllerRegistration[] = [
  imagePullerRegistration,
];
