/**
 * Creating a workload's pod under a create expectation, so the next pass waits for the informer to
 * show it. A pod with a known name is expected before the call (and observed again if the call
 * fails); a pod with a generated name can only be expected once the server named it, unless the
 * cache already delivered it. The callers word their own events.
 */
import type { Pod } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { Pods } from '../../api/resource-type.js';
import { isAlreadyExists } from '../../machinery/errors.js';
import type { DeleteContext } from './delete.js';

export type CreateContext = DeleteContext;

/** True when created, false when a pod of that name already exists; any other error goes to `failed`, then is thrown. */
export async function createNamedPodExpected(c: CreateContext, pod: Pod, failed: (e: unknown) => void): Promise<boolean> {
  const name = pod.metadata.name!;
  c.expectations.expect(c.key, 'create', name);
  try {
    await c.client.create(Pods, pod);
    return true;
  } catch (e) {
    c.expectations.observe(c.key, 'create', name);
    if (isAlreadyExists(e)) return false;
    failed(e);
    throw e;
  }
}

/** Creates a pod whose name the server generates; errors go to `failed`, then are thrown. */
export async function createGeneratedPodExpected(
  c: CreateContext & { pods: { get(namespace: string | undefined, name: string): KObject | undefined } }, pod: Pod, failed: (e: unknown) => void,
): Promise<Pod> {
  let created: Pod;
  try {
    created = await c.client.create<Pod>(Pods, pod);
  } catch (e) {
    failed(e);
    throw e;
  }
  const name = created.metadata.name!;
  // The informer may already have delivered the pod (finding no expectation to meet).
  if (!c.pods.get(created.metadata.namespace, name)) c.expectations.expect(c.key, 'create', name);
  return created;
}
