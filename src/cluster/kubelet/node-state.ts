/**
 * Simulated nodes across restarts of `kruise up`: each node's runtime state lives in
 * `<stateDir>/<node>.json`; a node the new run no longer simulates (fewer `--nodes`) leaves the
 * cluster: its Node and Lease are deleted and its state file removed. Pods still bound to it are
 * left to the pod garbage collector, as in kube when a machine goes away.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Leases, Nodes } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import type { ResolvedOptions } from './options.js';

const stateSuffix = '.json';

export function nodeStateFile(stateDir: string, node: string): string {
  return path.join(stateDir, `${node}${stateSuffix}`);
}

/** Deletes simulated nodes (by state file or by name prefix) that are not in `simulated`. */
export async function removeStaleNodes(o: ResolvedOptions, simulated: ReadonlySet<string>): Promise<void> {
  const files = await readdir(o.stateDir!).catch(() => [] as string[]);
  const stale = new Set(files.filter((f) => f.endsWith(stateSuffix)).map((f) => f.slice(0, -stateSuffix.length)));
  for (const node of (await o.client.list(Nodes)).items) {
    const name = node.metadata.name!;
    if (name.startsWith(o.namePrefix) && /^\d+$/.test(name.slice(o.namePrefix.length))) stale.add(name);
  }
  for (const name of stale) {
    if (simulated.has(name)) continue;
    for (const [type, namespace] of [[Nodes, undefined], [Leases, 'kube-node-lease']] as const) {
      await o.client.delete(type, namespace, name).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
    }
    await rm(nodeStateFile(o.stateDir!, name), { force: true });
  }
}
