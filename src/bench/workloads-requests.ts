/**
 * The API server's view of who writes: every request through the handler (HTTP and in-process
 * alike), counted by User-Agent (up to the first '/'), verb and resource. A write is create,
 * update, patch, delete or deletecollection, whatever the response code; failed writes (conflicts,
 * webhook denials) are also counted apart.
 */
import type { ApiHandler } from '../apiserver/http/handler.js';
import { parseRequestInfo } from '../apiserver/http/request-info.js';

const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export interface AgentRequests {
  reads: number;
  writes: number;
  failedWrites: number;
  /** Milliseconds the API handler spent on this agent's writes (admission, webhooks and storage included). */
  writeMs: number;
  /** Writes by `<verb> <resource>[/<subresource>]`, e.g. `patch pods`, `update clonesets/status`. */
  byKind: Record<string, KindStats>;
}

export interface KindStats {
  n: number;
  /** Handler milliseconds, summed. */
  ms: number;
  /** Failed ones by HTTP code. */
  failed: Record<string, number>;
}

export type RequestTable = Record<string, AgentRequests>;

const empty = (): AgentRequests => ({ reads: 0, writes: 0, failedWrites: 0, writeMs: 0, byKind: {} });

export class RequestCounter {
  private readonly table: RequestTable = {};
  private readonly lastWrite: Record<string, number> = {};
  /** Watch requests by agent, then `resource[.group]`: one per informer until its first reconnect (after 5 minutes). */
  private readonly watchTable: Record<string, Record<string, number>> = {};

  /** Counts every request `handler` answers from now on. */
  wrap(handler: ApiHandler): void {
    const handle = handler.handle.bind(handler);
    handler.handle = async (req) => {
      const started = performance.now();
      const response = await handle(req);
      const agent = (req.headers['user-agent'] ?? 'unknown').split('/')[0]!;
      const info = parseRequestInfo(req.method, req.path, req.query);
      const row = (this.table[agent] ??= empty());
      if (info.verb === 'watch' && info.isResource) {
        const kinds = (this.watchTable[agent] ??= {});
        const kind = `${info.resource}${info.group ? `.${info.group}` : ''}`;
        kinds[kind] = (kinds[kind] ?? 0) + 1;
      }
      if (!writeVerbs.has(info.verb)) {
        row.reads++;
        return response;
      }
      const ms = performance.now() - started;
      const what = info.isResource ? `${info.verb} ${info.resource}${info.subresource ? `/${info.subresource}` : ''}` : `${info.verb} ${info.path}`;
      const kind = (row.byKind[what] ??= { n: 0, ms: 0, failed: {} });
      row.writes++;
      row.writeMs += ms;
      kind.n++;
      kind.ms += ms;
      if (response.code >= 400) {
        row.failedWrites++;
        kind.failed[response.code] = (kind.failed[response.code] ?? 0) + 1;
      }
      this.lastWrite[agent] = performance.now();
      return response;
    };
  }

  snapshot(): RequestTable {
    return structuredClone(this.table);
  }

  /** Watches `agent` opened so far, by kind. */
  watches(agent: string): Record<string, number> {
    return { ...this.watchTable[agent] };
  }

  /** performance.now() of the agent's last write (0: none yet). */
  lastWriteAt(agent: string): number {
    return this.lastWrite[agent] ?? 0;
  }
}

export function diffRequests(after: RequestTable, before: RequestTable): RequestTable {
  const out: RequestTable = {};
  for (const [agent, a] of Object.entries(after)) {
    const b = before[agent] ?? empty();
    const byKind: Record<string, KindStats> = {};
    for (const [k, x] of Object.entries(a.byKind)) {
      const y = b.byKind[k] ?? { n: 0, ms: 0, failed: {} };
      if (x.n === y.n) continue;
      const failed = Object.fromEntries(Object.entries(x.failed).map(([c, n]) => [c, n - (y.failed[c] ?? 0)]).filter(([, n]) => Number(n) > 0));
      byKind[k] = { n: x.n - y.n, ms: x.ms - y.ms, failed };
    }
    out[agent] = { reads: a.reads - b.reads, writes: a.writes - b.writes, failedWrites: a.failedWrites - b.failedWrites, writeMs: a.writeMs - b.writeMs, byKind };
  }
  return out;
}
