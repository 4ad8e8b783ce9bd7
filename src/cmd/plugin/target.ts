/**
 * What every kubectl-kruise workload command shares (docs/design/manager.md §12): the `TYPE/NAME`
 * reference of a CloneSet, Advanced StatefulSet or Advanced DaemonSet, the client, and kubectl's
 * write flags — `--dry-run=client|server` (server: the write carries dryRun=All), `-o yaml|json|name`
 * and the deprecated `--record` (the `kubernetes.io/change-cause` annotation, which the workload's
 * revisions copy, so `rollout history` lists it).
 */
import { stringify } from 'yaml';
import type { PodTemplateSpec } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import { createHttpClient, type Client } from '../../client/index.js';
import { loadKubeconfig } from '../../client/kubeconfig.js';
import { retryOnConflict } from '../../client/retry.js';
import { rolloutKinds } from '../rollout-status.js';

export interface WorkloadCommandOptions { kubeconfig?: string; namespace?: string }
export interface WriteFlags extends WorkloadCommandOptions {
  dryRun?: 'none' | 'client' | 'server';
  output?: 'yaml' | 'json' | 'name';
  /** `--record`: the command line as the change cause. */
  changeCause?: string;
}

export interface Workload extends KObject {
  spec: {
    replicas?: number; selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
    template: PodTemplateSpec; updateStrategy?: { rollingUpdate?: { paused?: boolean } }; scaleStrategy?: { podsToDelete?: string[] };
  };
}

export const namespaceOf = (o: WorkloadCommandOptions): string => o.namespace ?? loadKubeconfig({ path: o.kubeconfig }).namespace ?? 'default';
export const pluginClient = (o: WorkloadCommandOptions): Client => createHttpClient({ kubeconfigPath: o.kubeconfig, userAgent: 'kubectl-kruise' });
/** kubectl's name for an object in messages: `cloneset.apps.kruise.io/web`, `service/web`. */
export const displayName = (type: ResourceType, name: string): string => `${type.kind.toLowerCase()}${type.group ? `.${type.group}` : ''}/${name}`;

/** kubectl's `-c/--containers` pattern (`*` matches any run of characters). */
export const containerGlob = (pattern: string): RegExp =>
  new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

/** Prints `obj` as `-o` asks, else kubectl's `<kind.group>/<name> <verb>` line with its dry-run suffix. */
export function emit(type: ResourceType, obj: KObject, verb: string, o: WriteFlags, print: (line: string) => void): void {
  const shown = { apiVersion: type.group ? `${type.group}/${type.version}` : type.version, kind: type.kind, ...obj };
  if (o.output === 'json') print(JSON.stringify(shown, null, 4));
  else if (o.output === 'yaml') print(stringify(shown).trimEnd());
  else if (o.output === 'name') print(displayName(type, obj.metadata.name!));
  else print(`${displayName(type, obj.metadata.name!)} ${verb}${o.dryRun === 'client' ? ' (dry run)' : o.dryRun === 'server' ? ' (server dry run)' : ''}`);
}

/**
 * Writes `obj` as the flags say: nothing for client dry run, dryRun=All for server dry run; with
 * `--record` the change cause first. Returns what the server answered (or the object itself).
 */
export async function write<T extends KObject>(client: Client, type: ResourceType, obj: T, o: WriteFlags, how: 'create' | 'update'): Promise<T> {
  if (o.changeCause) obj.metadata.annotations = { ...obj.metadata.annotations, 'kubernetes.io/change-cause': o.changeCause };
  if (o.dryRun === 'client') return obj;
  const options = o.dryRun === 'server' ? { dryRun: true } : {};
  return how === 'create' ? client.create(type, obj, options) : client.update(type, obj, options);
}

/** `TYPE/NAME` or `TYPE NAME`, the kind resolved, and the read-modify-write every command uses. */
export function workloadTarget(ref: string[], o: WriteFlags) {
  const [first, second] = ref;
  const [typeName, name] = second !== undefined ? [first!, second] : (first ?? '').split('/', 2) as [string, string | undefined];
  const kind = rolloutKinds.find((k) => k.names.includes(typeName.toLowerCase()));
  if (!kind) throw new Error(`the server doesn't have a resource type "${typeName}" handled here; use one of: ${rolloutKinds.map((k) => k.names[0]).join(', ')}`);
  if (!name) throw new Error('you must specify the name of the resource, e.g. clone/demo');
  const namespace = namespaceOf(o);
  const client = pluginClient(o);
  const display = displayName(kind.type, name);
  const get = () => client.get<Workload>(kind.type, namespace, name);
  /** Applies `change` to a fresh copy and writes it; `change` returns false to write nothing (kubectl's no-op). */
  const edit = (change: (w: Workload) => boolean) => retryOnConflict(async () => {
    const w = await get();
    if (!change(w)) return { object: w, changed: false };
    return { object: await write(client, kind.type, w, o, 'update'), changed: true };
  });
  return { kind, name, namespace, client, display, get, edit };
}
