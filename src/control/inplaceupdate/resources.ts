/**
 * cpu/memory helpers for in-place resize (docs/design/inplace-update.md §8): the pod QoS class a template yields
 * (a resize must not change it), and whether a container's status already reports its spec values.
 */
import { compareQuantities, isValidQuantity } from '../../machinery/quantity.js';
import type { Container, ResourceList, ResourceRequirements } from '../../api/core/index.js';

export const resizableResources = ['cpu', 'memory'] as const;

const positive = (v: string | number | undefined): boolean =>
  v !== undefined && isValidQuantity(v) && compareQuantities(v, 0) > 0;

function sameQuantity(a: string | number | undefined, b: string | number | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (!isValidQuantity(a) || !isValidQuantity(b)) return a === b;
  return compareQuantities(a, b) === 0;
}

/** core/v1 PodQOSClass of these containers (init containers included). */
export function qosClass(containers: Container[]): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const requests = c.resources?.requests ?? {};
    const limits = c.resources?.limits ?? {};
    for (const r of resizableResources) {
      if (positive(requests[r]) || positive(limits[r])) any = true;
      if (!positive(limits[r])) guaranteed = false;
      else if (requests[r] !== undefined && !sameQuantity(requests[r], limits[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function sameList(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  return resizableResources.every((r) => sameQuantity(a?.[r], b?.[r]));
}

/** The cpu/memory requests and limits of `actual` equal those of `expected`. */
export function sameResources(expected: ResourceRequirements | undefined, actual: ResourceRequirements | undefined): boolean {
  return sameList(expected?.requests, actual?.requests) && sameList(expected?.limits, actual?.limits);
}

/** Copies the cpu/memory values of `next` into the container's requests/limits (other keys untouched). */
export function applyResources(c: Container, next: ResourceRequirements): void {
  const res = (c.resources ??= {});
  for (const part of ['requests', 'limits'] as const) {
    const values = next[part];
    if (!values) continue;
    for (const r of resizableResources) if (values[r] !== undefined) (res[part] ??= {})[r] = values[r];
  }
}

/** Some changed resource of this container asks for a restart (resizePolicy RestartContainer). */
export function resizeNeedsRestart(c: Container, next: ResourceRequirements): boolean {
  return (c.resizePolicy ?? []).some((p) => p.restartPolicy === 'RestartContainer'
    && (['requests', 'limits'] as const).some((part) => {
      const r = p.resourceName as (typeof resizableResources)[number];
      return resizableResources.includes(r) && next[part]?.[r] !== undefined && !sameQuantity(next[part]?.[r], c.resources?.[part]?.[r]);
    }));
}
