/**
 * The wire contract of the embedded API server's transport-independent entry point: the request
 * an HTTP request (or the in-process client) becomes, and the response the server answers with.
 * The API server implements RequestHandler; the in-process client calls it. One definition here,
 * imported by both, so neither side restates the other.
 */
import type { KObject, WatchEventType } from './meta.js';

/** Who sent a request, as authentication established it. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  /** Extra attributes (a bound token's pod, impersonated extras), as kube's user.Info GetExtra. */
  extra?: Record<string, string[]>;
}

export interface ApiRequest {
  method: string;
  /** Percent-encoded path, exactly as it would appear in an HTTP request line. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  body?: Buffer;
  user: UserInfo;
}

/**
 * A streamed watch: `start` begins delivery of newline-delimited JSON (or, when the client asked for
 * protobuf, length-prefixed binary frames); the returned function stops it.
 */
export interface WatchStream {
  start(write: (chunk: string | Buffer, shared?: SharedWatchEvent) => void, end: () => void): () => void;
}

/**
 * Beside a JSON watch line of a stored object: the same event for in-process readers that never
 * modify what they get, with the object built once per event for all of them, shared with the
 * store and without metadata.managedFields (docs/design/performance.md §20).
 */
export interface SharedWatchEvent {
  type: WatchEventType;
  object(): KObject;
}

export interface ApiResponse {
  code: number;
  headers?: Record<string, string>;
  /** JSON value (serialised by the transport) or plain text. */
  body?: unknown;
  text?: string;
  /** Binary body (OpenAPI v2 protobuf). */
  raw?: Buffer;
  contentType?: string;
  watch?: WatchStream;
  /** Warnings sent as `Warning: 299 - "..."` headers. */
  warnings?: string[];
}

export interface RequestHandler {
  handle(req: ApiRequest): Promise<ApiResponse>;
}
