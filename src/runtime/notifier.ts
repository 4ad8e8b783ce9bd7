/**
 * Informer event handlers: registration (with a replay of the cache, as client-go's shared informer
 * does for late handlers), the notifications a relist implies, and dispatch that isolates handlers
 * from each other: a throwing handler is logged and the others still run.
 */
import type { KObject } from '../api/meta.js';
import type { Logger } from '../machinery/log.js';
import { objectKey, type Store } from './store.js';

export interface EventHandler<T extends KObject> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last known state: the watch's final object, or the cached one after a relist. */
  onDelete?(obj: T): void;
}

export type Notification<T> =
  | { type: 'add'; obj: T }
  | { type: 'update'; old: T; obj: T }
  | { type: 'delete'; obj: T };

/** What replacing `old` by `obj` under one key means; a different uid is a delete and a re-create. */
export function changeOf<T extends KObject>(old: T | undefined, obj: T): Notification<T>[] {
  if (!old) return [{ type: 'add', obj }];
  if (old.metadata.uid && obj.metadata.uid && old.metadata.uid !== obj.metadata.uid) return [{ type: 'delete', obj: old }, { type: 'add', obj }];
  return [{ type: 'update', old, obj }];
}

/** Replaces the store's contents with `items`; returns the notifications, unchanged objects left out. */
export function diffAgainstCache<T extends KObject>(store: Store<T>, items: T[]): Notification<T>[] {
  const out: Notification<T>[] = [];
  const seen = new Set<string>();
  for (const obj of items) {
    const key = objectKey(obj);
    seen.add(key);
    const old = store.get(key);
    if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion) continue;
    store.upsert(obj);
    out.push(...changeOf(old, obj));
  }
  for (const key of store.keys()) {
    if (seen.has(key)) continue;
    out.push({ type: 'delete', obj: store.remove(key)! });
  }
  return out;
}

export class Notifier<T extends KObject> {
  private handlers: EventHandler<T>[] = [];

  constructor(private readonly store: Store<T>, private readonly log: Logger) {}

  add(handler: EventHandler<T>): () => void {
    this.handlers.push(handler);
    for (const obj of this.store.list()) this.call(handler, { type: 'add', obj });
    return () => { this.handlers = this.handlers.filter((h) => h !== handler); };
  }

  dispatch(notifications: Notification<T>[]): void {
    for (const n of notifications) for (const h of this.handlers) this.call(h, n);
  }

  private call(handler: EventHandler<T>, n: Notification<T>): void {
    try {
      if (n.type === 'add') handler.onAdd?.(n.obj);
      else if (n.type === 'update') handler.onUpdate?.(n.old, n.obj);
      else handler.onDelete?.(n.obj);
    } catch (e) {
      this.log.error({ err: e, event: n.type, name: n.obj.metadata.name, namespace: n.obj.metadata.namespace }, 'event handler failed');
    }
  }
}
