/**
 * The shape of the embedded API server's transport-independent entry point, restated here because
 * src/client may not import the control plane. Keep in sync with
 * src/controlplane/apiserver/types.ts (request-handler.test.ts checks assignability both ways).
 */

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
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

/** A streamed watch: `start` begins delivery of newline-delimited JSON; the returned function stops it. */
export interface WatchStream {
  start(write: (line: string) => void, end: () => void): () => void;
}

/** The subset of the server's ApiResponse a client reads. */
export interface ApiResponse {
  code: number;
  headers?: Record<string, string>;
  body?: unknown;
  text?: string;
  raw?: Buffer;
  contentType?: string;
  watch?: WatchStream;
}

export interface RequestHandler {
  handle(req: ApiRequest): Promise<ApiResponse>;
}
