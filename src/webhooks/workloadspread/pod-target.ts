/**
 * The WorkloadSpread a pod belongs to (docs/design/workloadspread.md §4): walk the pod's
 * controller-owner chain through supported kinds (a ReplicaSet leads on to its Deployment) until
 * an object some WorkloadSpread of the namespace targets; its targetFilter must select the pod.
 */
import type { Pod } from '../../api/core/index.js';
import type { Spread as WorkloadSpread } from '../../control/workloadspread/index.js';
import type { KObject, OwnerReference } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { passesTargetFilter, refersTo, targetTypeOf } from '../../control/workloadspread/index.js';
import { isNotFound } from '../../machinery/errors.js';

export interface SpreadMatch { ws: WorkloadSpread; type: ResourceType; target: KObject }

const maxHops = 3;

async function getOrUndefined(client: Client, type: ResourceType, namespace: string, name: string): Promise<KObject | undefined> {
  try {
    return await client.get(type, namespace, name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export async function findSpreadOfPod(client: Client, pod: Pod, namespace: string, spreads: WorkloadSpread[]): Promise<SpreadMatch | undefined> {
  let ref: OwnerReference | undefined = pod.metadata.ownerReferences?.find((r) => r.controller === true);
  for (let hop = 0; ref && hop < maxHops; hop++) {
    const type = targetTypeOf(ref);
    if (!type) return undefined;
    const named = { metadata: { name: ref.name } } as KObject;
    const candidates = spreads.filter((ws) => refersTo(ws.spec.targetRef, type, named));
    const mayGoUp = type.kind === 'ReplicaSet' && spreads.some((ws) => ws.spec.targetRef.kind === 'Deployment');
    if (candidates.length === 0 && !mayGoUp) return undefined;
    const obj = await getOrUndefined(client, type, namespace, ref.name);
    if (!obj || obj.metadata.uid !== ref.uid) return undefined;
    const ws = candidates.find((c) => passesTargetFilter(c, pod.metadata.labels));
    if (ws) return { ws, type, target: obj };
    if (!mayGoUp) return undefined;
    ref = obj.metadata.ownerReferences?.find((r) => r.controller === true);
  }
  return undefined;
}
