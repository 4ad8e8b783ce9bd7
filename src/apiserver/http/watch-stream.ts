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
import type { ApiResponse } from '../../api/request.js';
import { tableOf } from './table.js';
import { metrics } from './metrics.js';

const bookmarkIntervalMs = 60_000;

function encode(type: WatchEventType, object: unknown): string {
  return `{"type":"${type}","object":${JSON.stringify(object)}}\n`;
}

function sharedLine(d: WatchDelivery): string {
  if (!d.shared) return encode(d.type, d.object);
  const cache = (d.shared.encoded ??= new Map());
  let line = cache.get(d.type);
  if (line === undefined) {
    line = encode(d.type, d.object);
    cache.set(d.type, line);
  }
  return line;
}

export function watchResponse(registry: Registry, r: ServedResource, ns: string | undefined, o: ReturnType<typeof listOptions>, accept: AcceptInfo): ApiResponse {
  return {
    code: 200,
    watch: {
      start(write, end) {
        let first = true;
        let seenRv = 0;
        const toLine = (d: WatchDelivery): string => {
          seenRv = Math.max(seenRv, Number(d.object.metadata?.resourceVersion ?? 0));
          if (!accept.table) return sharedLine(d);
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
          const w = registry.watch(r, ns, o, (d) => write(toLine(d)), () => setImmediate(() => { stop(); end(); }));
          stopWatch = () => w.stop();
          seenRv = Math.max(seenRv, w.startRv);
        } catch (e) {
          if (!(e instanceof StatusError)) throw e;
          if (e.code === 410) metrics.watchExpired.inc();
          write(encode('ERROR', e.toStatus()));
          setImmediate(() => { stop(); end(); });
          return stop;
        }
        if (o.allowWatchBookmarks) {
          const bookmark = () => {
            const object: KObject = { kind: r.definition.kind, apiVersion: apiVersionOf(r.definition), metadata: { resourceVersion: String(seenRv) } };
            write(encode('BOOKMARK', object));
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
