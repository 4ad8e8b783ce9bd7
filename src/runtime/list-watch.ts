/**
 * The two API calls behind an informer, as plain functions: a paginated list that returns one
 * consistent snapshot, and one watch turned into a promise of how it ended.
 */
import type { KObject, Status, WatchEvent } from '../api/meta.js';
import { apiVersionOfType, type ResourceType } from '../api/resource-type.js';
import type { Client, ListOptions, WatchHandle } from '../client/client.js';
import { StatusError } from '../machinery/errors.js';

export type Selection = Pick<ListOptions, 'namespace' | 'labelSelector' | 'fieldSelector'>;

export async function listAll<T extends KObject>(client: Client, type: ResourceType, selection: Selection, pageSize = 500): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  let token: string | undefined;
  let resourceVersion = '';
  do {
    const page = await client.list<T>(type, { ...selection, limit: pageSize, continue: token });
    items.push(...page.items);
    // The first page's resourceVersion is the snapshot's; later pages repeat it.
    if (!token) resourceVersion = page.metadata.resourceVersion ?? '';
    token = page.metadata.continue || undefined;
  } while (token);
  return { items, resourceVersion };
}

export interface WatchOutcome {
  /** Undefined when the stream ended cleanly (server timeout, connection closed, or stopped). */
  error?: Error;
  events: number;
}

/**
 * Starts a watch; `done` settles (never rejects) when it ends. `handle()` ends it from our side.
 * Server-side timeouts are randomised between 5 and 10 minutes, as client-go's reflector does, so
 * many informers do not reconnect in lock-step.
 */
export function watchOnce<T extends KObject>(
  client: Client, type: ResourceType, options: Selection & { resourceVersion?: string; readOnlyObjects?: boolean }, onEvent: (event: WatchEvent<T>) => void,
): { handle: () => void; done: Promise<WatchOutcome> } {
  let finish: (error?: Error) => void = () => undefined;
  let events = 0;
  const done = new Promise<WatchOutcome>((resolve) => {
    let finished = false;
    let watch: WatchHandle | undefined;
    finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      watch?.stop();
      resolve({ error, events });
    };
    watch = client.watch<T>(type, { ...options, allowWatchBookmarks: true, timeoutSeconds: 300 + Math.floor(Math.random() * 300) }, {
      onEvent(event) {
        if (finished) return;
        if (event.type === 'ERROR') return finish(StatusError.fromStatus(event.object as unknown as Partial<Status>));
        events++;
        try {
          onEvent(event);
        } catch (e) {
          finish(e as Error);
        }
      },
      onClose: (error) => finish(error),
    });
  });
  return { handle: () => finish(), done };
}

/** List items come without apiVersion/kind; handlers (owner lookups, events) need them. */
export function withTypeMeta<T extends KObject>(type: ResourceType, obj: T): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: obj.apiVersion ?? apiVersionOfType(type), kind: obj.kind ?? type.kind };
}
