/**
 * Test kit: one embedded control plane (control-plane.ts) for a whole `describe` block, started in
 * `before` and stopped in `after`, with a raw HTTPS client for its admin kubeconfig. The
 * handles returned at once reach the running plane, so suites destructure `{ env, api }` at the top
 * instead of assigning variables in their own hooks.
 */
import { after, before } from 'node:test';
import { startTestControlPlane, type TestControlPlane } from './control-plane.js';
import { apiClientFromKubeconfig, type ApiClient } from './process.js';

export interface SuiteControlPlane {
  env: TestControlPlane;
  api: ApiClient;
}

/**
 * Call inside `describe`, not at a file's top level: there node:test starts each `before` as it is
 * registered, so a later hook would not wait for the plane. Use the handles in tests and later hooks.
 */
export function controlPlaneForSuite(options: Parameters<typeof startTestControlPlane>[0] = {}): SuiteControlPlane {
  let started: SuiteControlPlane | undefined;
  before(async () => {
    const env = await startTestControlPlane(options);
    started = { env, api: await apiClientFromKubeconfig(env.kubeconfig) };
  });
  after(async () => { await started?.env.stop(); });
  const running = (): SuiteControlPlane => {
    if (!started) throw new Error('control plane used before the suite\'s before() started it');
    return started;
  };
  return {
    env: {
      get plane() { return running().env.plane; },
      get dir() { return running().env.dir; },
      get kubeconfig() { return running().env.kubeconfig; },
      kubectl: (...args) => running().env.kubectl(...args),
      stop: () => running().env.stop(),
    },
    api: { request: (...args) => running().api.request(...args) },
  };
}
