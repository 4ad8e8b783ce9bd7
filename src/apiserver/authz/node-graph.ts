/**
 * What a node may read by kube's Node authorizer graph (docs/design/authorization.md §17): the pods
 * bound to it, and the Secrets, ConfigMaps, ServiceAccounts and claims those pods name, plus the
 * PersistentVolumes their bound claims use. kube keeps the graph up to date from informers; here the
 * edges are followed from the store on each question, reading only the namespace's pods (and, for a
 * volume, its claims), which is cheap next to the request itself.
 */
import type { KObject } from '../../api/meta.js';
import type { RegistryReader } from '../registry/reader.js';

export type GraphKind = 'pods' | 'secrets' | 'configmaps' | 'serviceaccounts' | 'persistentvolumeclaims' | 'persistentvolumes';

type Json = Record<string, any>; // any: pod specs are read field by field
const named = (x: unknown): string[] => (x && typeof (x as Json).name === 'string' ? [(x as Json).name] : []);

function podContainers(spec: Json): Json[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
}

/** The names of the objects of `kind` a pod refers to (kube's VisitPodSecretNames and its siblings). */
export function podReferences(pod: KObject, kind: GraphKind): string[] {
  const spec = (pod.spec ?? {}) as Json;
  const volumes: Json[] = spec.volumes ?? [];
  const env = podContainers(spec).flatMap((c) => [
    ...(c.env ?? []).map((e: Json) => e.valueFrom ?? {}),
    ...(c.envFrom ?? []),
  ]);
  const projected = volumes.flatMap((v) => v.projected?.sources ?? []);
  switch (kind) {
    case 'secrets':
      return [
        ...(spec.imagePullSecrets ?? []).flatMap(named),
        ...env.flatMap((e) => [...named(e.secretKeyRef), ...named(e.secretRef)]),
        ...volumes.flatMap((v) => [v.secret?.secretName, ...named(v.csi?.nodePublishSecretRef), ...Object.values(v).flatMap((s: Json) => named(s?.secretRef))]),
        ...projected.flatMap((s) => named(s.secret)),
      ].filter((n): n is string => typeof n === 'string');
    case 'configmaps':
      return [
        ...env.flatMap((e) => [...named(e.configMapKeyRef), ...named(e.configMapRef)]),
        ...volumes.flatMap((v) => named(v.configMap)),
        ...projected.flatMap((s) => named(s.configMap)),
      ];
    case 'serviceaccounts':
      return [spec.serviceAccountName || 'default'];
    case 'persistentvolumeclaims':
      return volumes.flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [`${pod.metadata.name}-${v.name}`] : []));
    default:
      return [];
  }
}

export class NodeGraph {
  constructor(private readonly reader: RegistryReader) {}

  /** Whether a path leads from the object to the node. */
  related(node: string, kind: GraphKind, namespace: string, name: string): boolean {
    if (kind === 'persistentvolumes') return this.volumeRelated(node, name);
    const pods = this.podsOn(node, namespace);
    if (kind === 'pods') return pods.some((p) => p.metadata.name === name);
    return pods.some((p) => podReferences(p, kind).includes(name));
  }

  private podsOn(node: string, namespace: string): KObject[] {
    const pods = this.reader.table.lookup('', 'v1', 'pods')!;
    return this.reader.listStored(pods, namespace).items.filter((p) => (p.spec as Json | undefined)?.nodeName === node);
  }

  private volumeRelated(node: string, volume: string): boolean {
    const claims = this.reader.table.lookup('', 'v1', 'persistentvolumeclaims')!;
    return this.reader.listStored(claims).items
      .filter((c) => (c.spec as Json | undefined)?.volumeName === volume)
      .some((c) => this.related(node, 'persistentvolumeclaims', c.metadata.namespace ?? '', c.metadata.name ?? ''));
  }
}
