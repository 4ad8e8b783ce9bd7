/**
 * A watch as a stream of JSON lines: events encoded once per store event and shared by every
 * watcher wanting the same bytes, bookmarks when asked for, an ERROR Status for a too-old
 * resourceVersion, and a clean end after `timeoutSeconds`.
 */
import type { KObject, WatchEventType } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import type { Registry } from '../registry/registry.js';
import { type ServedResource, apiVersionOf } from '../registry/served-resource.js';
import type { WatchDelivery } from '../registry/watch.js';
import type { AcceptInfo, listOptions } from './query.js';
import type { ApiResponse, SharedWatchEvent } from '../../api/request.js';
import { tableOf } from './table.js';
import { metrics } from './metrics.js';
import { encodeWatchFrame, PROTOBUF_WATCH_CONTENT_TYPE, protobufMessageOf } from './protobuf/encode.js';
import { jsonText } from '../../machinery/json-text.js';
import { deepFreeze } from '../../machinery/deep-freeze.js';
import { clone } from '../../machinery/deep-equal.js';

const bookmarkIntervalMs = 60_000;

/**
 * KRUISE_FREEZE_WATCHED=1 hands in-process informers deep-frozen copies instead of the store's
 * objects, so a controller that modifies what its cache holds throws; the test suite runs with it
 * (scripts/run-tests.mjs, docs/design/performance.md §20).
 */
const freezeWatched = () => process.env.KRUISE_FREEZE_WATCHED === '1';

function encode(type: WatchEventType, object: unknown): string {
  return `{"type":"${type}","object":${jsonText(object)}}\n`;
}

/** A protobuf frame, or the JSON line when the object has no wire message (never for built-in kinds). */
function encodeFrame(type: WatchEventType, object: unknown): string | Buffer {
  return encodeWatchFrame(type, object) ?? encode(type, object);
}

/** The stored object without managedFields, made once per event for every in-process reader. */
function sharedEvent(d: WatchDelivery): SharedWatchEvent | undefined {
  const e = d.shared;
  if (!e || d.object !== e.object) return undefined;
  return { type: d.type, object: () => (e.forReaders ??= forReaders(e.object)) };
}

function forReaders(o: KObject): KObject {
  const { managedFields: _dropped, ...metadata } = o.metadata;
  const object = { ...o, metadata };
  return freezeWatched() ? deepFreeze(clone(object)) : object;
}

function sharedLine(d: WatchDelivery, protobuf: boolean): string | Buffer {
  const encoder = protobuf ? encodeFrame : encode;
  if (!d.shared) return encoder(d.type, d.object);
  const cache = (d.shared.encoded ??= new Map());
  const key = protobuf ? `pb:${d.type}` : d.type;
  let line = cache.get(key);
  if (line === undefined) {
    line = encoder(d.type, d.object);
    cache.set(key, line);
  }
  return line;
}

export function watchResponse(registry: Registry, r: ServedResource, ns: string | undefined, o: ReturnType<typeof listOptions>, accept: AcceptInfo): ApiResponse {
  // kube answers protobuf for built-in kinds only; custom resources stay JSON lines.
  const protobuf = accept.protobuf && protobufMessageOf({ apiVersion: apiVersionOf(r.definition), kind: r.definition.kind }) !== undefined;
  const encodeEvent = protobuf ? encodeFrame : encode;
  return {
    code: 200,
    ...(protobuf ? { contentType: PROTOBUF_WATCH_CONTENT_TYPE } : {}),
    watch: {
      start(write, end) {
        let first = true;
        let seenRv = 0;
        const toLine = (d: WatchDelivery): string | Buffer => {
          seenRv = Math.max(seenRv, Number(d.object.metadata?.resourceVersion ?? 0));
          if (!accept.table) return sharedLine(d, protobuf);
          const table = tableOf(r, [d.object], accept, registry, undefined, first);
          first = false;
          return encode(d.type, table);
        };
        let stopWatch: (() => void) | undefined;
        const timers: NodeJS.Timeout[] = [];
        let stopped = false;
        const stop = () => {
          if (stopped) return;
          stopped = true;
          stopWatch?.();
          stopWatch = undefined;
          timers.forEach(clearTimeout);
          metrics.watchers.dec();
        };
        metrics.watchers.inc();
        try {
          const w = registry.watch(r, ns, o, (d) => write(toLine(d), protobuf || accept.table ? undefined : sharedEvent(d)), () => setImmediate(() => { stop(); end(); }));
          stopWatch = () => w.stop();
          seenRv = Math.max(seenRv, w.startRv);
        } catch (e) {
          if (!(e instanceof StatusError)) throw e;
          if (e.code === 410) metrics.watchExpired.inc();
          write(encodeEvent('ERROR', e.toStatus()));
          setImmediate(() => { stop(); end(); });
          return stop;
        }
        if (o.allowWatchBookmarks) {
          const bookmark = () => {
            const object: KObject = { kind: r.definition.kind, apiVersion: apiVersionOf(r.definition), metadata: { resourceVersion: String(seenRv) } };
            write(encodeEvent('BOOKMARK', object));
          };
          const tick = setInterval(bookmark, bookmarkIntervalMs);
          timers.push(tick);
        }
        if (o.timeoutSeconds && o.timeoutSeconds > 0) {
          timers.push(setTimeout(() => { stop(); end(); }, o.timeoutSeconds * 1000));
        }
        return stop;
      },
    },
  };
}
