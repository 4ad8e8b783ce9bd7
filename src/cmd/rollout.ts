/** `kruise rollout status TYPE/NAME`: follows a Kruise workload (polling its status) until the rollout is done. */
import type { KObject } from '../api/meta.js';
import { createHttpClient } from '../client/index.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { rolloutKinds, type RolloutStatus } from './rollout-status.js';

export interface RolloutStatusOptions {
  kubeconfig?: string;
  namespace?: string;
  watch: boolean;
  /** Seconds; 0 waits forever. */
  timeout: number;
}

function resolveKind(ref: string[]): { kind: (typeof rolloutKinds)[number]; name: string } {
  const [first, second] = ref;
  const [typeName, name] = second !== undefined ? [first!, second] : (first ?? '').split('/', 2) as [string, string | undefined];
  const kind = rolloutKinds.find((k) => k.names.includes(typeName.toLowerCase()));
  if (!kind) {
    throw new Error(`no status viewer has been implemented for "${typeName}"; use one of: ${rolloutKinds.map((k) => k.names[0]).join(', ')}`);
  }
  if (!name) throw new Error('you must specify the name of the resource, e.g. clone/demo');
  return { kind, name };
}

const defaultNamespace = (kubeconfig: string | undefined): string => loadKubeconfig({ path: kubeconfig }).namespace ?? 'default';

export async function runRolloutStatus(ref: string[], o: RolloutStatusOptions, print: (line: string) => void = console.log): Promise<void> {
  const { kind, name } = resolveKind(ref);
  const namespace = o.namespace ?? defaultNamespace(o.kubeconfig);
  const client = createHttpClient({ kubeconfigPath: o.kubeconfig, userAgent: 'kruise-rollout' });
  const deadline = o.timeout > 0 ? Date.now() + o.timeout * 1000 : Infinity;
  let last = '';
  for (;;) {
    const obj = await client.get<KObject>(kind.type, namespace, name);
    const status: RolloutStatus = kind.status(obj);
    if (status.message !== last) print(status.message);
    last = status.message;
    if (status.done || !o.watch) return;
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, 250));
  }
}
