/**
 * The raw HTTPS client the differential cases use: one per server, bearer token over TLS, and it
 * reports what a comparison needs (status, parsed body, Warning headers) plus streamed watches.
 */
import https from 'node:https';

/** Response bodies and objects are arbitrary JSON that the cases pick apart field by field. */
export type Json = any;  

export interface ApiResponse {
  status: number;
  body: Json;
  text: string;
  /** The body's bytes and Content-Type (protobuf answers). */
  raw: Buffer;
  contentType: string;
  /** Texts of the `Warning: 299 - "..."` headers, in order. */
  warnings: string[];
}

export interface WatchEvent {
  type: string;
  object: Json;
}

export interface OpenWatch {
  events: WatchEvent[];
  /** The server ended the stream. */
  ended(): boolean;
  /** Resolves once `done(events)` holds, or after timeoutMs with whatever arrived. */
  until(done: (events: WatchEvent[]) => boolean, timeoutMs?: number): Promise<WatchEvent[]>;
  stop(): void;
}

export interface DiffApi {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** Opens a watch and resolves once the response headers arrived (the stream is established). */
  watch(path: string): Promise<OpenWatch>;
  close(): void;
  /** Where and as whom it connects, for tools run against the same server (kubectl). */
  access: ServerAccess;
}

export interface ServerAccess {
  url: string;
  caPem: string;
  token: string;
}

const userAgent = 'differential/v0.0.0';

function warningTexts(header: string | string[] | undefined): string[] {
  const all = header === undefined ? [] : Array.isArray(header) ? header : [header];
  // Several warnings may share one header line, comma separated: 299 - "a", 299 - "b"
  return all.flatMap((h) => [...h.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1')));
}

export function createDiffApi(access: ServerAccess): DiffApi {
  const server = new URL(access.url);
  const agent = new https.Agent({ ca: access.caPem, keepAlive: true, maxSockets: 32 });
  const options = (method: string, path: string, headers: Record<string, string>) => ({
    host: server.hostname, port: server.port, path, method, agent,
    headers: { authorization: `Bearer ${access.token}`, 'user-agent': userAgent, accept: 'application/json', ...headers },
  });

  function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const sized: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    return new Promise((resolve, reject) => {
      const req = https.request(options(method, path, { ...sized, ...headers }), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString();
          let parsed: Json;
          try { parsed = JSON.parse(text); } catch { parsed = undefined; }
          resolve({ status: res.statusCode ?? 0, body: parsed, text, raw, contentType: res.headers['content-type'] ?? '', warnings: warningTexts(res.headers.warning) });
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  function watch(path: string): Promise<OpenWatch> {
    return new Promise((resolve, reject) => {
      const events: WatchEvent[] = [];
      const waiters = new Set<() => void>();
      let ended = false;
      const req = https.request(options('GET', path, {}), (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`watch ${path}: HTTP ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = '';
        res.on('data', (c: Buffer) => {
          buffer += c.toString();
          let nl: number;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (line) events.push(JSON.parse(line) as WatchEvent);
          }
          for (const w of waiters) w();
        });
        res.on('error', () => undefined); // aborted by stop()
        res.on('end', () => {
          ended = true;
          for (const w of waiters) w();
        });
        resolve({ events, ended: () => ended, until, stop: () => req.destroy() });
      });
      req.on('error', (e) => reject(e));
      req.end();

      function until(done: (events: WatchEvent[]) => boolean, timeoutMs = 5_000): Promise<WatchEvent[]> {
        return new Promise((res) => {
          const check = () => {
            if (!done(events)) return;
            finish();
          };
          const finish = () => {
            clearTimeout(timer);
            waiters.delete(check);
            res(events.slice());
          };
          const timer = setTimeout(finish, timeoutMs);
          waiters.add(check);
          check();
        });
      }
    });
  }

  return { request, watch, close: () => agent.destroy(), access };
}
