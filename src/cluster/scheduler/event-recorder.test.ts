import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { FakeClock } from '../../machinery/clock.js';
import { EventRecorder } from './event-recorder.js';
import { makePod } from './test-objects.js';

function fakeClient() {
  const calls: { verb: string; name?: string; body: unknown }[] = [];
  const client = {
    async create(_t: unknown, obj: KObject) { calls.push({ verb: 'create', name: obj.metadata.name, body: obj }); return obj; },
    async patch(_t: unknown, _ns: string, name: string, _type: string, body: unknown) { calls.push({ verb: 'patch', name, body }); return {}; },
  } as unknown as Client; // only the two methods the recorder uses
  return { client, calls };
}

describe('EventRecorder', () => {
  const pod = { ...makePod('web'), metadata: { ...makePod('web').metadata, uid: 'u1', resourceVersion: '7' } };

  test('writes a core/v1 Event about the object', async () => {
    const { client, calls } = fakeClient();
    const rec = new EventRecorder({ client, clock: new FakeClock('2024-05-01T10:00:00Z'), component: 'default-scheduler', log: pino({ level: 'silent' }) });
    rec.record(pod, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned default/web to n1');
    await rec.flush();
    assert.equal(calls.length, 1);
    const ev = calls[0].body as Record<string, unknown>;
    assert.match(String(calls[0].name), /^web\.[0-9a-f]{16}$/);
    assert.deepEqual(ev.involvedObject, { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', resourceVersion: '7' });
    assert.deepEqual([ev.type, ev.reason, ev.action, ev.message, ev.count], ['Normal', 'Scheduled', 'Binding', 'Successfully assigned default/web to n1', 1]);
    assert.deepEqual(ev.source, { component: 'default-scheduler' });
    assert.equal(ev.firstTimestamp, '2024-05-01T10:00:00Z');
  });

  test('a repeated event bumps the count of the one written', async () => {
    const { client, calls } = fakeClient();
    const clock = new FakeClock('2024-05-01T10:00:00Z');
    const rec = new EventRecorder({ client, clock, component: 'default-scheduler', log: pino({ level: 'silent' }) });
    rec.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
    await rec.flush();
    clock.advance(5000);
    rec.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
    rec.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'other');
    await rec.flush();
    assert.deepEqual(calls.map((c) => c.verb), ['create', 'patch', 'create']);
    assert.deepEqual(calls[1].body, { count: 2, lastTimestamp: '2024-05-01T10:00:05Z' });
    assert.equal(calls[1].name, calls[0].name);
  });

  test('drops events beyond the buffer instead of growing without bound', async () => {
    const { client, calls } = fakeClient();
    const rec = new EventRecorder({ client, clock: new FakeClock(), component: 'c', log: pino({ level: 'silent' }), concurrency: 1, maxPending: 2 });
    for (let i = 0; i < 10; i++) rec.record(pod, 'Normal', 'R', 'A', `m${i}`);
    await rec.flush();
    assert.equal(calls.length, 3); // one in flight, two buffered
  });
});
