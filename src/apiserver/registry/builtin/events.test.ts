import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { coreEventToEventsV1, eventsV1ToCoreEvent } from './event-conversion.js';
import { findBuiltin, simulateCreate } from './strategy-harness.js';

const coreEvents = findBuiltin('', 'events');
const eventsV1 = findBuiltin('events.k8s.io', 'events');

const coreEvent: KObject = {
  apiVersion: 'v1', kind: 'Event',
  metadata: { name: 'web.17a', namespace: 'default', resourceVersion: '7' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'v1', resourceVersion: '5', fieldPath: 'spec.containers{web}' },
  reason: 'Pulled', message: 'pulled image', type: 'Normal', action: 'Pull',
  source: { component: 'kubelet', host: 'node-1' }, count: 3,
  firstTimestamp: '2025-01-01T00:00:00Z', lastTimestamp: '2025-01-01T00:01:00Z',
  eventTime: '2025-01-01T00:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: 'node-1',
  related: { kind: 'Node', name: 'node-1' }, series: { count: 2, lastObservedTime: '2025-01-01T00:01:00.000000Z' },
};

describe('event conversion', () => {
  test('core -> events.k8s.io renames fields', () => {
    const v1 = coreEventToEventsV1(coreEvent);
    assert.equal(v1.apiVersion, 'events.k8s.io/v1');
    assert.deepEqual(v1.regarding, coreEvent.involvedObject);
    assert.equal(v1.note, 'pulled image');
    assert.deepEqual(v1.deprecatedSource, { component: 'kubelet', host: 'node-1' });
    assert.equal(v1.deprecatedCount, 3);
    assert.equal(v1.deprecatedFirstTimestamp, coreEvent.firstTimestamp);
    assert.equal(v1.deprecatedLastTimestamp, coreEvent.lastTimestamp);
    assert.equal(v1.reportingController, 'kubelet');
    for (const key of ['involvedObject', 'message', 'source', 'count', 'reportingComponent']) assert.equal(v1[key], undefined, key);
  });

  test('round trips are lossless both ways', () => {
    assert.deepEqual(eventsV1ToCoreEvent(coreEventToEventsV1(coreEvent)), coreEvent);
    const modern = coreEventToEventsV1(coreEvent);
    assert.deepEqual(coreEventToEventsV1(eventsV1ToCoreEvent(modern)), modern);
  });

  test('absent fields stay absent', () => {
    const minimal: KObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, reason: 'X' };
    assert.deepEqual(coreEventToEventsV1(minimal), { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, reason: 'X' });
  });
});

describe('event strategies', () => {
  test('core field selectors used by kubectl describe', () => {
    const attrs = coreEvents.strategy.fieldAttributes!(coreEvent);
    assert.equal(attrs['involvedObject.name'], 'web');
    assert.equal(attrs['involvedObject.uid'], 'u1');
    assert.equal(attrs['involvedObject.fieldPath'], 'spec.containers{web}');
    assert.equal(attrs.source, 'kubelet');
    assert.equal(attrs.reportingComponent, 'kubelet');
    assert.equal(attrs.type, 'Normal');
    const fromController = coreEvents.strategy.fieldAttributes!({ metadata: {}, reportingComponent: 'kube-scheduler' });
    assert.equal(fromController.source, 'kube-scheduler');
  });

  test('core events must sit in their object namespace', () => {
    assert.deepEqual(simulateCreate(coreEvents, coreEvent).errors, []);
    const elsewhere = { ...structuredClone(coreEvent), metadata: { name: 'e', namespace: 'other' } };
    assert.deepEqual(simulateCreate(coreEvents, elsewhere).errors, ['involvedObject.namespace: Invalid value: "default": does not match event.namespace']);
    const nodeEvent: KObject = { metadata: { name: 'n', namespace: 'default' }, involvedObject: { kind: 'Node', name: 'node-1' } };
    assert.deepEqual(simulateCreate(coreEvents, nodeEvent).errors, []);
  });

  test('events.k8s.io requires the reporting fields', () => {
    assert.deepEqual(simulateCreate(eventsV1, coreEventToEventsV1(coreEvent)).errors, []);
    assert.deepEqual(simulateCreate(eventsV1, { metadata: { name: 'e' }, type: 'Normal' }).errors, [
      'eventTime: Required value', 'reportingController: Required value', 'reportingInstance: Required value',
      'action: Required value', 'reason: Required value',
    ]);
  });
});
