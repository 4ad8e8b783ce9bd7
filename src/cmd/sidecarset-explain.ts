/** `kruise sidecarset explain POD`: which SidecarSets apply to a pod and why (docs/design/sidecarset.md §10). */
import type { Namespace, Pod } from '../api/core/index.js';
import { SidecarSets } from '../api/kruise/resource-types.js';
import { Namespaces, Pods } from '../api/resource-type.js';
import type { Client } from '../client/client.js';
import { createHttpClient } from '../client/index.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
import { explainSidecarSets, type SidecarSet } from '../control/sidecarcontrol/index.js';
import { isNotFound } from '../machinery/errors.js';

export interface ExplainOptions { kubeconfig?: string; namespace?: string }

/** The report as lines: one per SidecarSet, a table with MATCH, INJECTED and WHY. */
export async function explainPod(client: Client, namespace: string, name: string): Promise<string[]> {
  const pod = await client.get<Pod>(Pods, namespace, name);
  const sets = (await client.list<SidecarSet>(SidecarSets)).items;
  let labels: Record<string, string> | undefined;
  try {
    labels = (await client.get<Namespace>(Namespaces, undefined, namespace)).metadata.labels ?? {};
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
  const rows = explainSidecarSets(sets, pod, labels);
  if (rows.length === 0) return ['No SidecarSets found.'];
  const width = Math.max(10, ...rows.map((r) => r.name.length)) + 2;
  const pad = (s: string, n: number) => s.padEnd(n);
  return [
    `${pad('SIDECARSET', width)}${pad('MATCH', 7)}${pad('INJECTED', 10)}WHY`,
    ...rows.map((r) => `${pad(r.name, width)}${pad(r.matches ? 'yes' : 'no', 7)}${pad(r.injected ? 'yes' : 'no', 10)}${r.detail}`),
  ];
}

export async function runSidecarSetExplain(pod: string, o: ExplainOptions, print: (line: string) => void = console.log): Promise<void> {
  const namespace = o.namespace ?? loadKubeconfig({ path: o.kubeconfig }).namespace ?? 'default';
  const client = createHttpClient({ kubeconfigPath: o.kubeconfig, userAgent: 'kruise-sidecarset-explain' });
  for (const line of await explainPod(client, namespace, pod)) print(line);
}
