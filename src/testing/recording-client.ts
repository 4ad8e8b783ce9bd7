/**
 * The Client a test gives a controller's manager: every write passes through an `around` hook (to
 * record it, check it before it is sent, or fake a controller bug), and once killed every call
 * fails, as calls from a crashed manager process would. The watch streams are left alone: a killed
 * manager is stopped right after, which closes them.
 */
import type { KList, KObject } from '../api/meta.js';
import type { ResourceType } from '../api/resource-type.js';
import type { Client, DeleteOptions, ListOptions, PatchOptions, PatchType, UpdateOptions, WatchCallbacks, WatchHandle, WatchOptions, WriteOptions } from '../client/client.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { StatusError } from '../machinery/errors.js';

export type WriteVerb = 'create' | 'update' | 'updateStatus' | 'patch' | 'delete' | 'createSubresource';

export interface WriteCall {
  verb: WriteVerb;
  type: ResourceType;
  namespace: string | undefined;
  name: string;
  /** The object sent by create/update/updateStatus. */
  object?: KObject;
  /** The delete's options (UID precondition). */
  deleteOptions?: DeleteOptions;
}

/** Runs around one write: call `send()` to perform it (or not, or twice); return what it returned. */
export type Around = (call: WriteCall, send: () => Promise<unknown>, inner: Client) => Promise<unknown>;

export const isPodCall = (call: WriteCall): boolean => call.type.group === '' && call.type.resource === 'pods';

export class RecordingClient implements Client {
  private dead = false;
  constructor(private readonly inner: Client, private readonly around: Around = (_, send) => send()) {}

  /** Every later call fails with "connection refused". */
  kill(): void {
    this.dead = true;
  }

  private alive(): void {
    if (this.dead) throw new Error('connection refused: the manager was killed');
  }

  private write<T>(call: WriteCall, send: () => Promise<T>): Promise<T> {
    this.alive();
    return this.around(call, send, this.inner) as Promise<T>;
  }

  get<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string): Promise<T> {
    this.alive();
    return this.inner.get<T>(type, namespace, name);
  }

  list<T extends KObject = KObject>(type: ResourceType, options?: ListOptions): Promise<KList<T>> {
    this.alive();
    return this.inner.list<T>(type, options);
  }

  watch<T extends KObject = KObject>(type: ResourceType, options: WatchOptions, callbacks: WatchCallbacks<T>): WatchHandle {
    return this.inner.watch<T>(type, options, callbacks);
  }

  create<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T> {
    const call = { verb: 'create' as const, type, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '', object: obj };
    return this.write(call, () => this.inner.create(type, obj, options));
  }

  update<T extends KObject>(type: ResourceType, obj: T, options?: UpdateOptions): Promise<T> {
    const call = { verb: 'update' as const, type, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '', object: obj };
    return this.write(call, () => this.inner.update(type, obj, options));
  }

  updateStatus<T extends KObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<T> {
    const call = { verb: 'updateStatus' as const, type, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '', object: obj };
    return this.write(call, () => this.inner.updateStatus(type, obj, options));
  }

  patch<T extends KObject = KObject>(type: ResourceType, namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, options?: PatchOptions): Promise<T> {
    return this.write({ verb: 'patch', type, namespace, name }, () => this.inner.patch<T>(type, namespace, name, patchType, patch, options));
  }

  delete(type: ResourceType, namespace: string | undefined, name: string, options?: DeleteOptions): Promise<void> {
    return this.write({ verb: 'delete', type, namespace, name, deleteOptions: options }, () => this.inner.delete(type, namespace, name, options));
  }

  createSubresource(type: ResourceType, namespace: string | undefined, name: string, subresource: string, body: unknown): Promise<unknown> {
    return this.write({ verb: 'createSubresource', type, namespace, name }, () => this.inner.createSubresource(type, namespace, name, subresource, body));
  }
}

export interface Write {
  verb: WriteVerb;
  resource: string;
  name: string;
  /** The HTTP code of a failed write (-1 when it failed without a Status). */
  code?: number;
}

/**
 * Every write of the managers as an `around` hook records it, with the code it failed with. For
 * `statusOf` (a workload's plural), status updates that repeat the status last stored are kept too.
 */
export class WriteLog {
  readonly writes: Write[] = [];
  /** Status updates of `statusOf` that sent exactly the status already stored. */
  readonly repeatedStatus: string[] = [];
  private stored: unknown;

  constructor(private readonly statusOf?: string) {}

  readonly around: Around = async (call, send) => {
    const write: Write = { verb: call.verb, resource: call.type.resource, name: call.name };
    this.writes.push(write);
    const isStatus = call.verb === 'updateStatus' && call.type.resource === this.statusOf;
    if (isStatus && deepEqual((call.object as { status?: unknown } | undefined)?.status, this.stored)) this.repeatedStatus.push(JSON.stringify(this.stored));
    try {
      const out = await send();
      if (isStatus) this.stored = (out as { status?: unknown }).status;
      return out;
    } catch (e) {
      write.code = e instanceof StatusError ? e.code : -1;
      throw e;
    }
  };

  /** Successful writes since index `from` with this verb on this resource. */
  succeeded(from: number, verb: WriteVerb, resource: string): Write[] {
    return this.writes.slice(from).filter((x) => x.verb === verb && x.resource === resource && x.code === undefined);
  }

  conflicts(resource: string): number {
    return this.writes.filter((x) => x.resource === resource && x.code === 409).length;
  }
}
