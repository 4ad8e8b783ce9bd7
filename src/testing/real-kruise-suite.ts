/**
 * Test kit: one Kruise on a real control plane (real-kruise.ts) for a whole `describe` block. The
 * block's `before` starts it and its `after` stops it; the handle returned at once reaches the running
 * one, so suites destructure `kubectl`, `json`, `pods` and `apply` at the top instead of forwarding
 * each through a variable assigned in `before`.
 */
import { after, before } from 'node:test';
import { startRealKruise, type RealKruise, type RealKruiseOptions } from './real-kruise.js';

/** Call inside `describe`; use the handle only in tests and hooks registered after this call. */
export function realKruiseForSuite(options: RealKruiseOptions): RealKruise {
  let started: RealKruise | undefined;
  before(async () => { started = await startRealKruise(options); });
  after(async () => { await started?.stop(); });
  const running = (): RealKruise => {
    if (!started) throw new Error(`${options.name}: used before the suite's before() started it`);
    return started;
  };
  return {
    get real() { return running().real; },
    get dir() { return running().dir; },
    get manager() { return running().manager; },
    get nodeNames() { return running().nodeNames; },
    get scheduler() { return running().scheduler; },
    get installToReadyMs() { return running().installToReadyMs; },
    get daemonOutputs() { return running().daemonOutputs; },
    kubectl: (...args) => running().kubectl(...args),
    json: (args) => running().json(args),
    pods: (app) => running().pods(app),
    apply: (manifest) => running().apply(manifest),
    stop: () => running().stop(),
  };
}
