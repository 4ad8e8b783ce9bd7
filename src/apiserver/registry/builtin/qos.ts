/**
 * The pod's QoS class as the API server records it at creation: Guaranteed when every container
 * (init included) has cpu and memory limits and the summed requests equal the summed limits,
 * BestEffort with no cpu/memory requests or limits at all, Burstable otherwise.
 */
import type { KObject } from '../../../api/meta.js';
import { compareQuantities, sumQuantities, type QuantityInput } from '../../../machinery/quantity.js';
import { child, isObject, items } from '../../../machinery/json.js';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const qosResources = ['cpu', 'memory'];

function positive(q: unknown): q is QuantityInput {
  try {
    return (typeof q === 'string' || typeof q === 'number') && compareQuantities(q, 0) > 0;
  } catch {
    return false;
  }
}

/** Adds the positive cpu/memory values of `list` into `into`; returns the names it found. */
function collect(list: unknown, into: Map<string, QuantityInput[]>): Set<string> {
  const found = new Set<string>();
  for (const [name, q] of Object.entries(isObject(list) ? list : {})) {
    if (!qosResources.includes(name) || !positive(q)) continue;
    found.add(name);
    into.set(name, [...(into.get(name) ?? []), q]);
  }
  return found;
}

export function podQosClass(pod: KObject): QosClass {
  const spec = child(pod, 'spec');
  const requests = new Map<string, QuantityInput[]>();
  const limits = new Map<string, QuantityInput[]>();
  let guaranteed = true;
  for (const c of [...items(spec, 'containers'), ...items(spec, 'initContainers')]) {
    const resources = child(c, 'resources');
    collect(resources?.requests, requests);
    const limitsFound = collect(resources?.limits, limits);
    if (!qosResources.every((r) => limitsFound.has(r))) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, reqs] of requests) {
      const lims = limits.get(name);
      if (!lims || compareQuantities(sumQuantities(lims), sumQuantities(reqs)) !== 0) { guaranteed = false; break; }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
