import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { KObject } from '../api/meta.js';
import { ConfigMaps, Events } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createInProcessClient } from '../client/in-process-client.js';
import { setRootLogger } from '../machinery/log.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import { FakeClock } from '../machinery/clock.js';
import { EventRecorder } from './events.js';

setRootLogger(pino({ level: 'silent' }));

describe('event recorder', () => {
  let env: TestControlPlane;
  let client: Client;
  let subject: KObject;
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
    subject = await client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'subject', namespace: 'default' } });
  });
  after(async () => { await env.stop(); });

  const eventsFor = async (name: string) =>
    (await client.list(Events, { namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items;

  test('writes a core/v1 Event with every reporting field, and aggregates repeats into count', async () => {
    const clock = new FakeClock('2024-05-01T10:00:00Z');
    const recorder = new EventRecorder({ client, component: 'test-controller', instance: 'host-1', clock });
    recorder.event(subject, 'Normal', 'Synced', 'all good');
    clock.advance(5000);
    recorder.event(subject, 'Normal', 'Synced', 'all good');
    clock.advance(5000);
    recorder.event(subject, 'Normal', 'Synced', 'all good');
    recorder.event(subject, 'Warning', 'Failed', 'boom');
    await recorder.flush();
    const events = await eventsFor('subject');
    assert.equal(events.length, 2, 'one event per distinct (type, reason, message)');
    const synced = events.find((e) => e.reason === 'Synced')!;
    assert.deepEqual(synced.involvedObject, { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'subject', uid: subject.metadata.uid, resourceVersion: subject.metadata.resourceVersion });
    assert.equal(synced.type, 'Normal');
    assert.equal(synced.message, 'all good');
    assert.equal(synced.count, 3);
    assert.equal(synced.firstTimestamp, '2024-05-01T10:00:00Z');
    assert.equal(synced.lastTimestamp, '2024-05-01T10:00:10Z');
    assert.deepEqual(synced.source, { component: 'test-controller', host: 'host-1' });
    assert.equal(synced.reportingComponent, 'test-controller');
    assert.equal(synced.reportingInstance, 'host-1');
    assert.match(synced.metadata.name!, /^subject\.[0-9a-f]+$/);
    assert.equal(events.find((e) => e.reason === 'Failed')!.type, 'Warning');
  });

  test('re-creates an aggregated event that was deleted; failures never reach the caller', async () => {
    const clock = new FakeClock();
    const recorder = new EventRecorder({ client, component: 'test-controller', clock });
    const other = { ...subject, metadata: { ...subject.metadata, name: 'other' } };
    recorder.event(other, 'Normal', 'Again', 'x');
    await recorder.flush();
    const [first] = await eventsFor('other');
    await client.delete(Events, 'default', first.metadata.name!);
    recorder.event(other, 'Normal', 'Again', 'x');
    await recorder.flush();
    const after = await eventsFor('other');
    assert.equal(after.length, 1);
    assert.equal(after[0].count, 2);
    const broken = new EventRecorder({ client, component: 'x', clock });
    broken.event({ metadata: { name: 'bad name!', namespace: 'no-such-namespace' } }, 'Normal', 'R', 'm');
    await broken.flush(); // resolves although the write failed
    assert.throws(() => new EventRecorder({ client, component: '' }));
  });
});

describe('event spam filter', () => {
  let env: TestControlPlane;
  let client: Client;
  before(async () => {
    env = await startTestControlPlane();
    client = createInProcessClient(env.plane.handler);
  });
  after(async () => { await env.stop(); });

  test('one object gets a burst of 25 events, then one more per 5 minutes; other objects keep their own budget', async () => {
    const clock = new FakeClock('2024-05-01T10:00:00Z');
    const recorder = new EventRecorder({ client, component: 'cloneset-controller', instance: 'h', clock });
    const set = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'default', uid: 'u1' } };
    for (let i = 0; i < 40; i++) recorder.event(set, 'Normal', 'SuccessfulCreate', `succeed to create pod web-${i}`);
    recorder.event({ ...set, metadata: { ...set.metadata, name: 'db', uid: 'u2' } }, 'Normal', 'SuccessfulCreate', 'succeed to create pod db-0');
    await recorder.flush();
    const about = async (name: string) => (await client.list(Events, { namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items;
    const web = await about('web');
    assert.equal(web.length, 25);
    assert.ok(web.some((e) => e.message === 'succeed to create pod web-24') && !web.some((e) => e.message === 'succeed to create pod web-25'));
    assert.equal((await about('db')).length, 1);
    clock.advance(299_000);
    recorder.event(set, 'Normal', 'SuccessfulCreate', 'succeed to create pod web-late');
    clock.advance(1_000);
    recorder.event(set, 'Normal', 'SuccessfulCreate', 'succeed to create pod web-later');
    await recorder.flush();
    const messages = (await about('web')).map((e) => e.message);
    assert.deepEqual([messages.includes('succeed to create pod web-late'), messages.includes('succeed to create pod web-later')], [false, true]);
  });
});
