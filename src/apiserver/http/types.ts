/** Transport-independent request and response of the API handler (HTTP and in-process clients share it). */
import type { UserInfo } from '../registry/context.js';

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  body?: Buffer;
  user: UserInfo;
}

/** A streamed watch: `start` begins delivery of newline-delimited JSON; the returned function stops it. */
export interface WatchStream {
  start(write: (line: string) => void, end: () => void): () => void;
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
  /** Warnings added to `Warning` headers. */
  warnings?: string[];
}
