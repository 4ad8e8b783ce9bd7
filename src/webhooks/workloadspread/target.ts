/**
 * The workload a WorkloadSpread targets (docs/design/webhooks.md §13): which
 * group/kind pairs are allowed (built-ins, or the `kruise-configuration` whitelist), how two target
 * references compare (group, kind and name; the version is ignored), and reading the target itself.
 */
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Deployments, Jobs, ReplicaSets, StatefulSets, type ResourceType } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import { isObject, str, type Json } from '../../machinery/json.js';
import { groupOf } from '../common/target-ref.js';

export interface TargetRef { apiVersion: string; kind: string; name: string }

export function sameTarget(a: TargetRef, b: TargetRef): boolean {
  return groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
}

/** Built-in target kinds and the groups each may come from. */
export const knownKinds: Record<string, string[]> = {
  CloneSet: ['apps.kruise.io'],
  Deployment: ['apps'],
  ReplicaSet: ['apps'],
  Job: ['batch'],
  StatefulSet: ['apps', 'apps.kruise.io'],
};

export interface WhitelistEntry { group: string; kind: string }

export const configurationName = 'kruise-configuration';
export const whitelistKey = 'WorkloadSpread_Watch_Custom_Workload_WhiteList';

/** Custom workloads allowed as targets; an absent ConfigMap or key means none. Go's JSON keys are case-insensitive. */
export async function readWhitelist(client: Client, namespace: string): Promise<WhitelistEntry[]> {
  let configMap: KObject;
  try {
    configMap = await client.get(ConfigMaps, namespace, configurationName);
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  const raw = str(configMap.data, whitelistKey);
  if (!raw) return [];
  const parsed: unknown = JSON.parse(raw);
  const workloads = isObject(parsed) ? (parsed.workloads ?? parsed.Workloads) : undefined;
  if (!Array.isArray(workloads)) return [];
  const field = (o: Json, key: string): string => str(o, key) || str(o, key.toLowerCase());
  return workloads.filter(isObject).map((w) => ({ group: field(w, 'Group'), kind: field(w, 'Kind') }));
}

const kruiseType = (resource: string, kind: string): ResourceType =>
  ({ group: 'apps.kruise.io', version: 'v1beta1', resource, kind, namespaced: true });

function resourceTypeOf(ref: TargetRef): ResourceType | undefined {
  const group = groupOf(ref.apiVersion);
  if (group === 'apps.kruise.io') {
    if (ref.kind === 'CloneSet') return kruiseType('clonesets', 'CloneSet');
    if (ref.kind === 'StatefulSet') return kruiseType('statefulsets', 'StatefulSet');
    return undefined;
  }
  const builtins = [Deployments, ReplicaSets, StatefulSets, Jobs];
  return builtins.find((t) => t.group === group && t.kind === ref.kind);
}

/** The target object of a built-in kind, or undefined when it does not exist (or its kind is custom). */
export async function getTarget(client: Client, namespace: string, ref: TargetRef): Promise<KObject | undefined> {
  const type = resourceTypeOf(ref);
  if (!type) return undefined;
  try {
    return await client.get(type, namespace, ref.name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
