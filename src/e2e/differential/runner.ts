/**
 * Runs the cases against one server: a fresh namespace per case (the same name on both servers),
 * a bounded number of cases at a time, and every failure kept as the case's result instead of
 * stopping the run.
 */
import type { DiffApi } from './api.js';
import { must, paths, type CaseContext, type DiffCase } from './case-kit.js';
import type { Observation } from './normalize.js';

export interface CaseResult {
  observation?: Observation;
  error?: string;
  ms: number;
}

export interface SideOptions {
  side: CaseContext['side'];
  /** The server runs kube-controller-manager, which creates `default` ServiceAccounts. */
  serviceAccounts: boolean;
  concurrency?: number;
  caseTimeoutMs?: number;
}

/** A DNS-1123 label unique per case: `d<index>-<slug of the name>`. */
export function namespaceFor(index: number, name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return `d${index}-${slug}`.slice(0, 40).replace(/-+$/, '');
}

export async function poll<T>(fn: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    const value = await fn();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }
}

async function prepareNamespace(api: DiffApi, ns: string, c: DiffCase, options: SideOptions): Promise<void> {
  must(await api.request('POST', paths.namespace(), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }), `create namespace ${ns}`);
  // Without kube-controller-manager the `default` ServiceAccount that pod admission looks up is made here.
  if (!options.serviceAccounts) {
    must(await api.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }), `ServiceAccount ${ns}/default`);
    return;
  }
  if (!c.needsServiceAccount) return;
  const sa = await poll(() => api.request('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`), (r) => r.status === 200, 15_000);
  must(sa, `ServiceAccount ${ns}/default`);
}

async function runOne(api: DiffApi, index: number, c: DiffCase, options: SideOptions): Promise<CaseResult> {
  const started = Date.now();
  const ns = namespaceFor(index, c.name);
  const timeoutMs = options.caseTimeoutMs ?? 45_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`case timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const work = (async () => {
      await prepareNamespace(api, ns, c, options);
      return c.run(api, { ns, side: options.side, poll });
    })();
    const observation = await Promise.race([work, timeout]);
    // Compared as JSON: a key holding undefined and a missing key are the same observation.
    return { observation: JSON.parse(JSON.stringify(observation)) as Observation, ms: Date.now() - started };
  } catch (e) {
    return { error: e instanceof Error ? e.stack ?? e.message : String(e), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

/** Results by case name. */
export async function runCases(api: DiffApi, cases: DiffCase[], options: SideOptions): Promise<Map<string, CaseResult>> {
  const results = new Map<string, CaseResult>();
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      results.set(cases[index].name, await runOne(api, index, cases[index], options));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker));
  return results;
}
