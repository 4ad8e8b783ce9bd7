/**
 * Printers for the small core/v1 kinds: Namespace, ConfigMap, Secret, ServiceAccount and Event.
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince, parseTimestamp } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { arrayAt, countKeys, createdAt, nameOf, numberAt, objectAt, stringAt, valueAt } from './fields.js';

export const namespacePrinter: TablePrinter = printer(
  [nameColumn(), col('Status', 'string', 'The status of the namespace'), ageColumn()],
  (ns, now) => [nameOf(ns), stringAt(ns, 'status', 'phase'), ageSince(createdAt(ns), now)],
);

export const configMapPrinter: TablePrinter = printer(
  [nameColumn(), col('Data', 'string', 'Data contains the configuration data.'), ageColumn()],
  (cm, now) => [nameOf(cm), countKeys(valueAt(cm, 'data')) + countKeys(valueAt(cm, 'binaryData')), ageSince(createdAt(cm), now)],
);

export const secretPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Type', 'string', 'Used to facilitate programmatic handling of secret data.'),
    col('Data', 'string', 'Data contains the secret data.'),
    ageColumn(),
  ],
  (s, now) => [nameOf(s), stringAt(s, 'type'), countKeys(valueAt(s, 'data')), ageSince(createdAt(s), now)],
);

export const serviceAccountPrinter: TablePrinter = printer(
  [nameColumn(), col('Secrets', 'string', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageColumn()],
  (sa, now) => [nameOf(sa), arrayAt(sa, 'secrets').length, ageSince(createdAt(sa), now)],
);

/** Age of a timestamp field when set, undefined otherwise. */
function ageIfSet(value: unknown, now: Date): string | undefined {
  return parseTimestamp(value) ? ageSince(value, now) : undefined;
}

function eventSource(ev: unknown): string {
  const component = stringAt(ev, 'source', 'component') || stringAt(ev, 'reportingComponent');
  const host = stringAt(ev, 'source', 'host') || stringAt(ev, 'reportingInstance');
  return host ? `${component}, ${host}` : component;
}

function eventTarget(ev: unknown): string {
  const obj = objectAt(ev, 'involvedObject');
  const kind = stringAt(obj, 'kind').toLowerCase();
  const name = stringAt(obj, 'name');
  return name ? `${kind}/${name}` : kind;
}

function eventCells(ev: unknown, now: Date): unknown[] {
  const first = ageIfSet(valueAt(ev, 'firstTimestamp'), now) ?? ageSince(valueAt(ev, 'eventTime'), now);
  let last = ageIfSet(valueAt(ev, 'lastTimestamp'), now) ?? first;
  let count = numberAt(ev, 'count');
  const series = valueAt(ev, 'series');
  if (series !== undefined && series !== null) {
    last = ageSince(valueAt(series, 'lastObservedTime'), now);
    count = numberAt(series, 'count');
  } else if (count === 0) {
    count = 1; // singleton events of the new API carry no count
  }
  return [
    last,
    stringAt(ev, 'type'),
    stringAt(ev, 'reason'),
    eventTarget(ev),
    stringAt(ev, 'involvedObject', 'fieldPath'),
    eventSource(ev),
    stringAt(ev, 'message').trim(),
    first,
    count,
    nameOf(ev),
  ];
}

export const eventPrinter: TablePrinter = printer(
  [
    col('Last Seen', 'string', 'The time at which the most recent occurrence of this event was recorded.'),
    col('Type', 'string', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col('Reason', 'string', "This should be a short, machine understandable string that gives the reason for the transition into the object's current status."),
    col('Object', 'string', 'The object that this event is about.'),
    wide('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.'),
    wide('Source', 'string', 'The component reporting this event. Should be a short machine understandable string.'),
    col('Message', 'string', 'A human-readable description of the status of this operation.'),
    wide('First Seen', 'string', 'The time at which the event was first recorded.'),
    wide('Count', 'string', 'The number of times this event has occurred.'),
    nameColumn(1),
  ],
  eventCells,
);

/** events.k8s.io/v1 names the same fields differently; map them onto the core/v1 shape. */
function asCoreEvent(ev: Record<string, unknown>): Record<string, unknown> {
  return {
    metadata: ev.metadata,
    involvedObject: ev.regarding,
    type: ev.type,
    reason: ev.reason,
    message: ev.note,
    source: ev.deprecatedSource,
    reportingComponent: ev.reportingController,
    reportingInstance: ev.reportingInstance,
    firstTimestamp: ev.deprecatedFirstTimestamp,
    lastTimestamp: ev.deprecatedLastTimestamp,
    count: ev.deprecatedCount,
    eventTime: ev.eventTime,
    series: ev.series,
  };
}

export const eventsV1Printer: TablePrinter = printer(eventPrinter.columns, (ev, now) => eventCells(asCoreEvent(ev), now));
