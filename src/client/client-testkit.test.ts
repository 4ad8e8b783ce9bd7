/**
 * Shared pieces of the client tests (no tests of its own; named *.test.ts so it may import the
 * test kit): the client factories every suite runs against, object builders, and a watch
 * recorder that waits for events instead of sleeping.
 */
import assert from 'node:assert/strict';
import type { KObject, WatchEvent } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { TestControlPlane } from '../testing/control-plane.js';
import type { Client, WatchHandle, WatchOptions } from './client.js';
import { createHttpClient } from './http-client.js';
import { createInProcessClient } from './in-process-client.js';
import { StatusError } from '../machinery/errors.js';

export const factories: [string, (env: TestControlPlane) => Client][] = [
  ['http', (env) => createHttpClient({ kubeconfigPath: env.kubeconfig })],
  ['in-process', (env) => createInProcessClient(env.plane.handler)],
];

export const configMap = (namespace: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data });

export const pod = (namespace: string, name: string): KObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace },
  spec: { containers: [{ name: 'app', image: 'nginx:1' }] },
});

export const deployment = (namespace: string, name: string): KObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'app', image: 'nginx:1' }, { name: 'sidecar', image: 'busybox:1' }] },
    },
  },
});

export interface Recorder {
  events: WatchEvent[];
  handle: WatchHandle;
  closes: (Error | undefined)[];
  /** Resolves once `n` events arrived (rejects after `ms`). */
  until(n: number, ms?: number): Promise<void>;
  /** Resolves with onClose's argument. */
  closed(ms?: number): Promise<Error | undefined>;
}

export function record(client: Client, type: ResourceType, options: WatchOptions): Recorder {
  const events: WatchEvent[] = [];
  const closes: (Error | undefined)[] = [];
  let wake = () => undefined as void;
  const handle = client.watch(type, options, {
    onEvent: (e) => { events.push(e); wake(); },
    onClose: (err) => { closes.push(err); wake(); },
  });
  const wait = (done: () => boolean, ms: number, what: string) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; events: ${events.map((e) => e.type).join(',')}`)), ms);
    wake = () => { if (done()) { clearTimeout(timer); resolve(); } };
    wake();
  });
  return {
    events, handle, closes,
    until: (n, ms = 5000) => wait(() => events.length >= n, ms, `${n} events`),
    closed: async (ms = 5000) => { await wait(() => closes.length > 0, ms, 'onClose'); return closes[0]; },
  };
}

/** Asserts `p` rejects with a StatusError of this code and reason. */
export async function rejectsWith(p: Promise<unknown>, code: number, reason: string): Promise<StatusError> {
  const err = await p.then(() => assert.fail(`expected ${code} ${reason}, got success`), (e: unknown) => e);
  assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
  assert.equal(err.code, code, err.message);
  assert.equal(err.reason, reason, err.message);
  return err;
}
