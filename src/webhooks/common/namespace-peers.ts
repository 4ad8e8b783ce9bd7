/**
 * The "one X per workload" checks of PodUnavailableBudget and PersistentPodState compare the object
 * with the others of its kind in its namespace; a failed lookup is an InternalError, not a denial
 * of the write for the caller's mistake.
 */
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { FieldError } from '../../machinery/errors.js';
import type { AdmissionInput } from '../kind-webhook.js';

/** `check` over the objects of `type` in the namespace of `obj` (or of the request); `failure` prefixes a lookup error. */
export async function checkNamespacePeers<T>(input: AdmissionInput, type: ResourceType, obj: { metadata?: { namespace?: string } },
  check: (others: T[]) => FieldError[], failure: string): Promise<FieldError[]> {
  try {
    const namespace = obj.metadata?.namespace || input.request.namespace;
    const others = await input.client.list<KObject>(type, { namespace });
    return check(others.items as unknown as T[]);
  } catch (e) {
    return [{ type: 'InternalError', field: '', detail: `${failure}, err: ${(e as Error).message}` }];
  }
}
