/**
 * The Client every controller, scheduler and simulated kubelet uses. Implementations: HttpClient
 * (any API server, from a kubeconfig or in-cluster config) and InProcessClient (the embedded
 * server's request pipeline, same admission and registry path as HTTP). Errors are StatusError.
 */
import type { KList, KObject, WatchEvent } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { StatusError } from '../machinery/errors.js';

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  /**
   * The caller never mutates the objects of its events and drops their managedFields (an
   * informer's cache): the in-process watchers of one API server are then handed the same object
   * for the same event, the store's own without managedFields, instead of decoding a copy each.
   */
  readOnlyObjects?: boolean;
}

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
}

export interface UpdateOptions extends WriteOptions {
  subresource?: string;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  subresource?: 'status' | 'scale' | string;
  force?: boolean;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

export interface WatchHandle {
  stop(): void;
}

export interface WatchCallbacks<T extends KObject> {
  onEvent(event: WatchEvent<T>): void;
  /** The stream ended: cleanly (no error), or with a StatusError (410 Expired means: relist). */
  onClose(error?: StatusError | Error): void;
}

export interface Client {
  /** GET of an object, or with `subresource` of one of its subresources (`scale`). */
  get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string, options?: { subresource?: string }): Promise<T>;
  list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>>;
  watch<T extends KObject = KObject>(type: ResourceType, options: WatchOptions, callbacks: WatchCallbacks<T>): WatchHandle;
  create<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T>;
  /** PUT of the whole object (optimistic concurrency through metadata.resourceVersion), or of a subresource such as `scale`. */
  update<T extends KObject>(type: ResourceType, obj: T, options?: UpdateOptions): Promise<T>;
  /** PUT to the status subresource. */
  updateStatus<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T>;
  patch<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, options?: PatchOptions): Promise<T>;
  delete(type: ResourceType, namespace: string | undefined, name: string, options?: DeleteOptions): Promise<void>;
  /** POST to a subresource such as pods/binding or pods/eviction. */
  createSubresource(type: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): Promise<unknown>;
}
