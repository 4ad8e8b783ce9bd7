/**
 * Resource arithmetic for scheduling: what a pod requests (containers summed, the peak of init
 * containers, sidecars held throughout, plus overhead) and a node's allocatable, as plain numbers:
 * cpu in millicores, everything else in whole units (bytes, devices).
 */
import { milliValue, unitValue } from '../../machinery/quantity.js';
import type { Container, PodSpec, ResourceList } from '../../api/core/index.js';

export interface Resources {
  milliCpu: number;
  memory: number;
  ephemeralStorage: number;
  /** Extended resources and hugepages by name; undefined when there are none. */
  scalar: Record<string, number> | undefined;
}

export const CPU = 'cpu';
export const MEMORY = 'memory';
export const EPHEMERAL_STORAGE = 'ephemeral-storage';
export const PODS = 'pods';

/** What scoring assumes for a container that requests no cpu or memory (kube-scheduler's defaults). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/**
 * Every Resources object is built by this one literal, so all share one hidden class: the filters
 * read these fields for every node of every cycle, and objects of mixed shapes (spread copies,
 * properties added later) made those reads several times slower.
 */
export const resources = (milliCpu = 0, memory = 0, ephemeralStorage = 0, scalar?: Record<string, number>): Resources =>
  ({ milliCpu, memory, ephemeralStorage, scalar });

export const emptyResources = (): Resources => resources();

function quantityOr0(read: (q: string | number) => number, q: string | number): number {
  try {
    return read(q);
  } catch {
    return 0; // the API server validated it; a bad value asks for nothing rather than failing every node
  }
}

/** A ResourceList (requests, overhead, allocatable) as Resources; `pods` is left out. */
export function fromResourceList(list: ResourceList | undefined): Resources {
  const r = emptyResources();
  if (!list) return r;
  for (const [name, q] of Object.entries(list)) {
    if (name === CPU) r.milliCpu = quantityOr0(milliValue, q);
    else if (name === MEMORY) r.memory = quantityOr0(unitValue, q);
    else if (name === EPHEMERAL_STORAGE) r.ephemeralStorage = quantityOr0(unitValue, q);
    else if (name !== PODS) (r.scalar ??= {})[name] = quantityOr0(unitValue, q);
  }
  return r;
}

export function addInto(target: Resources, r: Resources, sign = 1): void {
  target.milliCpu += sign * r.milliCpu;
  target.memory += sign * r.memory;
  target.ephemeralStorage += sign * r.ephemeralStorage;
  if (!r.scalar) return;
  const scalar = (target.scalar ??= {});
  for (const [name, v] of Object.entries(r.scalar)) scalar[name] = (scalar[name] ?? 0) + sign * v;
}

function maxInto(target: Resources, r: Resources): void {
  target.milliCpu = Math.max(target.milliCpu, r.milliCpu);
  target.memory = Math.max(target.memory, r.memory);
  target.ephemeralStorage = Math.max(target.ephemeralStorage, r.ephemeralStorage);
  if (!r.scalar) return;
  const scalar = (target.scalar ??= {});
  for (const [name, v] of Object.entries(r.scalar)) scalar[name] = Math.max(scalar[name] ?? 0, v);
}

const copy = (r: Resources): Resources => resources(r.milliCpu, r.memory, r.ephemeralStorage, r.scalar && { ...r.scalar });

function containerRequests(c: Container, nonZero: boolean): Resources {
  const requests = c.resources?.requests;
  const r = fromResourceList(requests);
  if (nonZero) {
    if (requests?.[CPU] === undefined) r.milliCpu = DEFAULT_MILLI_CPU_REQUEST;
    if (requests?.[MEMORY] === undefined) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/**
 * The pod's effective request: max(sum of app containers + sidecars, each init container's request
 * plus the sidecars started before it), plus overhead. With `nonZero`, containers without a cpu or
 * memory request count the scoring defaults instead (for spreading, never for fitting).
 */
export function podRequests(spec: PodSpec | undefined, nonZero = false): Resources {
  const total = emptyResources();
  for (const c of spec?.containers ?? []) addInto(total, containerRequests(c, nonZero));
  const sidecars = emptyResources();
  const initPeak = emptyResources();
  for (const c of spec?.initContainers ?? []) {
    const r = containerRequests(c, nonZero);
    if (c.restartPolicy === 'Always') {
      addInto(sidecars, r);
      maxInto(initPeak, sidecars);
    } else {
      const during = copy(sidecars);
      addInto(during, r);
      maxInto(initPeak, during);
    }
  }
  addInto(total, sidecars);
  maxInto(total, initPeak);
  if (spec?.overhead) addInto(total, fromResourceList(spec.overhead));
  return total;
}

export interface Allocatable extends Resources {
  pods: number;
}

/** Node `status.allocatable` as Resources plus the pod count (0 when missing, as upstream). */
export function allocatableOf(list: ResourceList | undefined): Allocatable {
  const r = fromResourceList(list);
  const pods = list?.[PODS];
  return { milliCpu: r.milliCpu, memory: r.memory, ephemeralStorage: r.ephemeralStorage, scalar: r.scalar, pods: pods === undefined ? 0 : quantityOr0(unitValue, pods) };
}
