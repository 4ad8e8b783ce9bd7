/**
 * `kubectl kruise expose TYPE/NAME --port=80 [--target-port=8080] [--name=N] [--type=T]`
 * (docs/design/manager.md §12), as `kubectl expose deployment` does: a Service selecting the
 * workload's `matchLabels`, labelled as the workload is; without --port, the template's container
 * ports (named `port-N` when several).
 */
import { Services } from '../../api/resource-type.js';
import { emit, workloadTarget, write, type WriteFlags } from './target.js';

export interface ExposeOptions extends WriteFlags {
  port?: string; targetPort?: string; name?: string; type?: string; protocol: string; selector?: string;
}

const intOrName = (v: string): number | string => (/^\d+$/.test(v) ? Number(v) : v);

function selectorOf(o: ExposeOptions, matchLabels: Record<string, string> | undefined, hasExpressions: boolean): Record<string, string> {
  if (o.selector) return Object.fromEntries(o.selector.split(',').map((p) => p.split('=', 2) as [string, string]));
  if (hasExpressions || !matchLabels) throw new Error('couldn\'t retrieve selectors via --selector flag or introspection: the selector has matchExpressions, which a Service cannot hold');
  return matchLabels;
}

export async function runExpose(ref: string[], o: ExposeOptions, print = console.log): Promise<void> {
  const t = workloadTarget(ref, o);
  const w = await t.get();
  const selector = selectorOf(o, w.spec.selector?.matchLabels, Boolean(w.spec.selector?.matchExpressions?.length));
  const found = o.port ? [{ port: Number(o.port), protocol: o.protocol }]
    : w.spec.template.spec!.containers.flatMap((c) => c.ports ?? []).map((p) => ({ port: p.containerPort, protocol: p.protocol ?? o.protocol }));
  if (found.length === 0) throw new Error('couldn\'t find port via --port flag or introspection');
  const ports = found.map((p, i) => ({
    ...(found.length > 1 ? { name: `port-${i + 1}` } : {}),
    port: p.port, protocol: p.protocol, targetPort: o.targetPort ? intOrName(o.targetPort) : p.port,
  }));
  const service = {
    apiVersion: 'v1', kind: 'Service',
    metadata: { name: o.name ?? t.name, namespace: t.namespace, ...(w.metadata.labels ? { labels: w.metadata.labels } : {}) },
    spec: { ports, selector, ...(o.type ? { type: o.type } : {}) },
  };
  emit(Services, await write(t.client, Services, service, o, 'create'), 'exposed', o, print);
}
