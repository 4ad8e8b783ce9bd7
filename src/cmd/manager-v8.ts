/**
 * V8 flags `kruise manager` sets on itself (docs/design/performance.md §15). Heap sizes can only be
 * given at start (NODE_OPTIONS, as the chart does: performance.md §6), but `--optimize-for-size`
 * is read by V8's heap at every collection: the heap grows by at most 1.3x its live data and
 * collections free memory rather than keep it for speed. Set before the manager's modules load, so
 * even a `kruise manager` started by hand, with no NODE_OPTIONS, idles near the chart's figures.
 */
import v8 from 'node:v8';

export const managerV8Flags = '--optimize-for-size';

/** KRUISE_MANAGER_V8_FLAGS replaces the default (empty: none). */
export function applyManagerV8Flags(env: NodeJS.ProcessEnv): string {
  const flags = env.KRUISE_MANAGER_V8_FLAGS ?? managerV8Flags;
  if (flags.trim()) v8.setFlagsFromString(flags);
  return flags;
}
