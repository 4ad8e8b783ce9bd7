/** Shared by the dashboard's HTTP tests: sign in, read the event stream, make a ServiceAccount token. */
import assert from 'node:assert/strict';
import { ServiceAccounts } from '../../api/resource-type.js';
import type { Client } from '../../client/index.js';
import type { ServedDashboard } from '../../dashboard/index.js';

export interface StreamEvent { event: string; data: any }

export async function signIn(d: ServedDashboard, secret: string): Promise<{ status: number; cookie?: string }> {
  const r = await fetch(`${d.url}login`, { method: 'POST', body: new URLSearchParams({ token: secret }), redirect: 'manual' });
  return { status: r.status, cookie: r.headers.get('set-cookie')?.split(';')[0] };
}

export async function serviceAccountToken(client: Client, name: string, namespace = 'default'): Promise<string> {
  await client.create(ServiceAccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
  const r = await client.createSubresource(ServiceAccounts, namespace, name, 'token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} }) as { status: { token: string } };
  return r.status.token;
}

/** Reads server-sent events until `done` returns true for one; returns the events read. */
export async function readEvents(url: string, cookie: string, done: (e: StreamEvent) => boolean): Promise<StreamEvent[]> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: abort.signal });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const events: StreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return events;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!event || data === undefined) continue;
        events.push({ event, data: JSON.parse(data) });
        if (done(events[events.length - 1]!)) return events;
      }
    }
  } finally {
    abort.abort();
  }
}

/** The first snapshot of a stream. */
export async function snapshotOf(url: string, cookie: string): Promise<{ rows: Record<string, any[]> }> {
  const events = await readEvents(url, cookie, (e) => e.event === 'snapshot');
  return events[events.length - 1]!.data;
}
