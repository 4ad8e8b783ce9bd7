/**
 * The event-handler side of scale expectations (kruise's cloneset_event_handler idea): a pod appearing
 * observes its owner's create, a pod going away (or getting a deletionTimestamp) observes the delete.
 */
import type { KObject } from '../api/meta.js';
import type { ScaleExpectations } from './expectations.js';
import { requestKey } from './handlers.js';
import { controllerRef } from './indexers.js';
import type { EventHandler, Informer } from './informer.js';

/** Observes creates and deletes of children whose controller reference is of `ownerKind`. */
export function scaleExpectationObserver<T extends KObject>(expectations: ScaleExpectations, ownerKind: string): EventHandler<T> {
  const ownerKey = (obj: T) => {
    const ref = controllerRef(obj);
    return ref?.kind === ownerKind ? requestKey({ namespace: obj.metadata.namespace, name: ref.name }) : undefined;
  };
  const deleted = (obj: T) => {
    const key = ownerKey(obj);
    if (key) expectations.observe(key, 'delete', obj.metadata.name!);
  };
  return {
    onAdd: (obj) => {
      const key = ownerKey(obj);
      if (key) expectations.observe(key, 'create', obj.metadata.name!);
    },
    onUpdate: (_old, obj) => { if (obj.metadata.deletionTimestamp) deleted(obj); },
    onDelete: deleted,
  };
}

export function observeOwnedScaleExpectations<T extends KObject>(informer: Informer<T>, expectations: ScaleExpectations, ownerKind: string): void {
  informer.addEventHandler(scaleExpectationObserver(expectations, ownerKind));
}
