/**
 * Events in both groups: core/v1 `events` (legacy validation, the involvedObject.* field selectors
 * kubectl describe uses) and events.k8s.io/v1 `events`, a second view of the same stored objects
 * whose strategy hooks receive the events.k8s.io/v1 shape (conversion: event-conversion.ts).
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable, qualifiedName } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { child, has, str } from '../../../machinery/json.js';

export function validateCoreEvent(ev: KObject): FieldError[] {
  const involvedNamespace = str(child(ev, 'involvedObject'), 'namespace');
  const namespace = ev.metadata.namespace ?? '';
  const ok = involvedNamespace ? involvedNamespace === namespace : namespace === '' || namespace === 'default';
  return ok ? [] : [field.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace')];
}

export function coreEventFieldAttributes(ev: KObject): Record<string, string> {
  const involved = child(ev, 'involvedObject');
  const attrs: Record<string, string> = {};
  for (const key of ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath']) {
    attrs[`involvedObject.${key}`] = str(involved, key);
  }
  attrs.reason = str(ev, 'reason');
  attrs.reportingComponent = str(ev, 'reportingComponent');
  attrs.source = str(child(ev, 'source'), 'component') || str(ev, 'reportingComponent');
  attrs.type = str(ev, 'type');
  return attrs;
}

/** events.k8s.io/v1 create rules: the reporting fields a modern recorder always fills. */
export function validateEventsV1(ev: KObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(ev, 'eventTime')) errs.push(field.required('eventTime'));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(field.invalid('type', '', `has invalid value: ${str(ev, 'type')}`));
  const controller = str(ev, 'reportingController');
  if (!controller) errs.push(field.required('reportingController'));
  else errs.push(...qualifiedName('reportingController', controller));
  const instance = str(ev, 'reportingInstance');
  if (!instance) errs.push(field.required('reportingInstance'));
  else if (instance.length > 128) errs.push(field.invalid('reportingInstance', '', 'can have at most 128 characters'));
  const action = str(ev, 'action');
  if (!action) errs.push(field.required('action'));
  else if (action.length > 128) errs.push(field.invalid('action', '', 'can have at most 128 characters'));
  const reason = str(ev, 'reason');
  if (!reason) errs.push(field.required('reason'));
  else if (reason.length > 128) errs.push(field.invalid('reason', '', 'can have at most 128 characters'));
  if (str(ev, 'note').length > 1024) errs.push(field.invalid('note', '', 'can have at most 1024 characters'));
  return errs;
}

const immutableEventsV1Fields = ['regarding', 'reason', 'note', 'type', 'action', 'related', 'reportingController', 'reportingInstance'];

export function coreEventsResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }), {
    validate: validateCoreEvent,
    fieldAttributes: coreEventFieldAttributes,
  });
}

export function eventsV1Resource(): BuiltinResource {
  return builtin(resource({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] }), {
    validate: validateEventsV1,
    validateUpdate: (ev, old) => immutableEventsV1Fields.flatMap((key) => immutable(key, ev[key], old[key])),
  });
}
