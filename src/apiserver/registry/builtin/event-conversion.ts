/**
 * core/v1 Event <-> events.k8s.io/v1 Event: one stored object, two views. Fields with the same
 * meaning are renamed (involvedObject <-> regarding, message <-> note, source <-> deprecatedSource ...);
 * the rest is shared. Absent fields stay absent in both directions, so a round trip is lossless.
 */
import type { KObject } from '../../../api/meta.js';
import { clone } from '../../../machinery/deep-equal.js';

/** [core/v1 name, events.k8s.io/v1 name] */
const renamed: [string, string][] = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['count', 'deprecatedCount'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['reportingComponent', 'reportingController'],
];

const shared = ['eventTime', 'series', 'reportingInstance', 'action', 'reason', 'related', 'type'];

function convert(obj: KObject, apiVersion: string, pairs: [string, string][]): KObject {
  const out: KObject = { apiVersion, kind: 'Event', metadata: clone(obj.metadata ?? {}) };
  for (const key of shared) if (obj[key] !== undefined) out[key] = clone(obj[key]);
  for (const [from, to] of pairs) if (obj[from] !== undefined) out[to] = clone(obj[from]);
  return out;
}

export function coreEventToEventsV1(obj: KObject): KObject {
  return convert(obj, 'events.k8s.io/v1', renamed);
}

export function eventsV1ToCoreEvent(obj: KObject): KObject {
  return convert(obj, 'v1', renamed.map(([core, events]) => [events, core]));
}
