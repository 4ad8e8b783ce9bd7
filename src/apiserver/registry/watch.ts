/**
 * WATCH: optional synthetic ADDED events for the current state, then the store's events from a
 * resourceVersion, filtered by selectors (an object leaving the selection is DELETED, one entering
 * it ADDED), converted to the requested version in order. A failed conversion (a CRD's conversion
 * webhook) ends the watch with an ERROR event carrying the Status, as kube's storage watch does.
 */
import type { KObject, WatchEventType } from '../../api/meta.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { StoreError, type StoreEvent } from '../storage/store.js';
import type { RegistryCore } from './core.js';
import { apiVersionOf, type ServedResource } from './served-resource.js';
import { collectionPrefix } from './keys.js';
import { buildMatcher, type Selection } from './selection.js';
import { present } from './read.js';

export interface WatchOptions extends Selection {
  resourceVersion?: string;
  sendInitialEvents?: boolean;
}

export interface WatchDelivery {
  type: WatchEventType;
  object: KObject;
  /** Set when `object` is exactly the stored event object, so encodings can be shared across watchers. */
  shared?: StoreEvent;
}

export interface RegistryWatch {
  stop(): void;
  /** Revision the watch started after (for bookmarks). */
  readonly startRv: number;
}

/** `end` is called once the watch ended by itself (after an ERROR event); the caller then closes the stream. */
export function watchObjects(core: RegistryCore, r: ServedResource, namespace: string | undefined, options: WatchOptions, deliver: (d: WatchDelivery) => void, end?: () => void): RegistryWatch {
  const matcher = buildMatcher(r, options);
  const matches = (o: KObject | undefined) => !!o && (!matcher || matcher(o));
  const prefix = collectionPrefix(r, namespace);
  const sameVersion = r.storageApiVersion === apiVersionOf(r.definition) && !(r.schemaIsAuthoritative && r.schema);
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  let handle: { stop(): void } | undefined;
  const send = (type: WatchEventType, stored: KObject, shared?: StoreEvent) => {
    if (sameVersion) {
      chain = chain.then(() => { if (!stopped) deliver({ type, object: stored, shared }); });
      return;
    }
    chain = chain.then(async () => {
      if (stopped) return;
      let object: KObject;
      try {
        object = await present(r, stored);
      } catch (e) {
        fail(e);
        return;
      }
      if (!stopped) deliver({ type, object });
    }).catch(() => undefined);
  };
  const fail = (e: unknown) => {
    if (stopped) return;
    stopped = true;
    handle?.stop();
    deliver({ type: 'ERROR', object: watchErrorStatus(e) as unknown as KObject });
    end?.();
  };
  let fromRv: number;
  const rvText = options.resourceVersion;
  if (!rvText || rvText === '0' || options.sendInitialEvents) {
    const list = core.store.list(prefix, { filter: matcher });
    for (const item of list.items) send('ADDED', item.object);
    fromRv = rvText && rvText !== '0' && !options.sendInitialEvents ? Number(rvText) : list.rv;
  } else {
    fromRv = Number(rvText);
    if (!Number.isInteger(fromRv) || fromRv < 0) throw errors.badRequest(`invalid resource version: ${rvText}`);
  }
  try {
    handle = core.store.watch(prefix, fromRv, (event) => {
      const now = event.type === 'DELETED' ? false : matches(event.object);
      const before = event.type === 'ADDED' ? false : matches(event.prevObject ?? event.object);
      if (event.type === 'DELETED') {
        if (before) send('DELETED', event.object, event);
      } else if (now && before) send('MODIFIED', event.object, event);
      else if (now) send('ADDED', event.object, event);
      else if (before) send('DELETED', leavingState(event));
    });
  } catch (e) {
    if (e instanceof StoreError && e.code === 'Expired') throw errors.expired(e.message);
    throw e;
  }
  return {
    startRv: fromRv,
    stop() {
      stopped = true;
      handle?.stop();
    },
  };
}

/** kube wraps an error that is not already an API status as 500 InternalError. */
function watchErrorStatus(e: unknown): ReturnType<StatusError['toStatus']> {
  if (e instanceof StatusError && e.reason) return e.toStatus();
  return errors.internal(e instanceof Error ? e.message : String(e)).toStatus();
}

/** An object leaving the selection is reported in its last matching state, at the new resourceVersion. */
function leavingState(event: StoreEvent): KObject {
  const prev = event.prevObject ?? event.object;
  return { ...prev, metadata: { ...prev.metadata, resourceVersion: event.object.metadata.resourceVersion } };
}
