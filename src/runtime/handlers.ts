/**
 * Event handlers only map an object to the requests to enqueue; the queue holds keys, not events.
 * `forSelf()` enqueues the object itself; `forControllerOwner(kind)` enqueues the owner named by
 * the object's controller reference, as kruise's cloneset_event_handler does for pods. An
 * `EventMapper` maps each kind of event on its own, for watches that care which one happened.
 */
import type { KObject } from '../api/meta.js';
import { controllerRef } from './indexers.js';
import { deepEqual } from '../machinery/deep-equal.js';

export interface Request {
  namespace?: string;
  name: string;
}

export type MapFunc<T extends KObject = KObject> = (obj: T) => Request[];

/** A delete only, or an update that changed the fields that matter: events left out enqueue nothing. */
export interface EventMapper<T extends KObject = KObject> {
  onAdd?(obj: T): Request[];
  onUpdate?(oldObj: T, newObj: T): Request[];
  onDelete?(obj: T): Request[];
}

/** What a watch enqueues: `map(obj)` for every event (old and new object on update), or per event. */
export type Mapping<T extends KObject = KObject> = MapFunc<T> | EventMapper<T>;

export function eventMapperOf<T extends KObject>(mapping: Mapping<T>): EventMapper<T> {
  if (typeof mapping !== 'function') return mapping;
  return { onAdd: mapping, onUpdate: (old, obj) => [...mapping(old), ...mapping(obj)], onDelete: mapping };
}

export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

/** Inverse of requestKey: names and namespaces never contain '/'. */
export function parseRequestKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function forSelf<T extends KObject = KObject>(): MapFunc<T> {
  return (obj) => (obj.metadata.name ? [{ namespace: obj.metadata.namespace, name: obj.metadata.name }] : []);
}

/**
 * The controller owner of `kind` (and, when given, API group) in the object's namespace. Owners are
 * namespaced like their children here; cluster-scoped owners of namespaced objects need their own map.
 */
export function forControllerOwner<T extends KObject = KObject>(kind: string, group?: string): MapFunc<T> {
  return (obj) => {
    const ref = controllerRef(obj);
    if (!ref || ref.kind !== kind) return [];
    if (group !== undefined && groupOf(ref.apiVersion) !== group) return [];
    return [{ namespace: obj.metadata.namespace, name: ref.name }];
  };
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/**
 * Every object of `targets` whenever a watched object appears, goes, or changes in what `relevant`
 * picks out of it (status churn such as heartbeats is ignored): how node changes wake DaemonSets.
 */
export function forAllWhenChanged<T extends KObject>(targets: { list(): KObject[] }, relevant: (obj: T) => unknown): EventMapper<T> {
  const all = (): Request[] => targets.list().map((t) => ({ namespace: t.metadata.namespace, name: t.metadata.name! }));
  return {
    onAdd: all,
    onUpdate: (old, obj) => (deepEqual(relevant(old), relevant(obj)) ? [] : all()),
    onDelete: all,
  };
}
