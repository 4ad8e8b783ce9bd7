/**
 * Writes a NodePodProbe spec change computed from the cache; every marker on the node and the daemon
 * (status) write the same object, so a conflict re-reads it from the API and recomputes, a few times,
 * instead of failing the whole reconcile (upstream retries on conflict too).
 */
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { NodePodProbes } from '../../api/kruise/resource-types.js';
import type { Client } from '../../client/client.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isConflict, isNotFound } from '../../machinery/errors.js';
import type { NodeProbeSpec } from './node-probes.js';

const attempts = 5;

/** Returns whether it wrote. */
export async function updateNodeProbes(client: Client, cached: NodePodProbe, change: (spec: NodeProbeSpec) => NodeProbeSpec): Promise<boolean> {
  let current = cached;
  for (let attempt = 1; ; attempt++) {
    const spec = change(current.spec ?? {});
    if (deepEqual(spec, current.spec ?? {})) return false;
    try {
      await client.update(NodePodProbes, { ...current, spec });
      return true;
    } catch (e) {
      if (!isConflict(e) || attempt >= attempts) throw e;
    }
    try {
      current = await client.get<NodePodProbe>(NodePodProbes, undefined, cached.metadata.name!);
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }
}
