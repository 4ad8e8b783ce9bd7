/**
 * A fault-injecting wrapper around any Client (controller-runtime's interceptor idea), for tests:
 * `endWatches()` closes every open watch cleanly, as a server or proxy timing out would, and
 * `pause()`/`resume()` hold new watches back, so a reconnect can arrive after the server's history
 * has moved on. (HTTP keep-alive reuses pooled sockets, so holding TCP connects alone is not enough.)
 * Other calls pass straight through.
 */
import type { KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client, WatchCallbacks, WatchHandle, WatchOptions } from '../client/client.js';

export interface WatchFaults {
  client: Client;
  endWatches(): void;
  pause(): void;
  resume(): void;
  /** Watches the server ended with 410 Expired so far. */
  expired(): number;
}

export function withWatchFaults(inner: Client): WatchFaults {
  let held: (() => void)[] | undefined;
  const open = new Set<() => void>();
  let expired = 0;

  function watch<T extends KObject>(type: ResourceType, options: WatchOptions, callbacks: WatchCallbacks<T>): WatchHandle {
    let handle: WatchHandle | undefined;
    let stopped = false;
    const end = () => { open.delete(end); handle?.stop(); callbacks.onClose(); };
    const begin = () => {
      if (stopped) return;
      open.add(end);
      handle = inner.watch<T>(type, options, {
        onEvent: (e) => callbacks.onEvent(e),
        onClose: (err) => {
          open.delete(end);
          if ((err as { code?: number } | undefined)?.code === 410) expired++;
          callbacks.onClose(err);
        },
      });
    };
    if (held) held.push(begin);
    else begin();
    return { stop: () => { stopped = true; open.delete(end); handle?.stop(); } };
  }

  const client = new Proxy(inner, {
    get: (target, prop, receiver) => (prop === 'watch' ? watch : Reflect.get(target, prop, receiver)),
  });
  return {
    client,
    endWatches: () => { for (const end of [...open]) end(); },
    pause: () => { held ??= []; },
    resume: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const begin of waiting) begin();
    },
    expired: () => expired,
  };
}
