/**
 * The edges of the Node authorizer's graph that start at a pod (docs/design/authorization.md §17):
 * the Secrets, ConfigMaps, ServiceAccount and claims it names, as kube's VisitPodSecretNames and its
 * siblings find them. NodeRestriction admission reads them too (a mirror pod may name none).
 */
import type { KObject } from '../../api/meta.js';

export type GraphKind = 'pods' | 'secrets' | 'configmaps' | 'serviceaccounts' | 'persistentvolumeclaims' | 'persistentvolumes';

type Json = Record<string, any>; // any: pod specs are read field by field
export type PodReferences = Record<'secrets' | 'configmaps' | 'serviceaccounts' | 'persistentvolumeclaims', string[]>;

/** The names of the objects of `kind` a pod refers to (kube's VisitPodSecretNames and its siblings). */
export function podReferences(pod: KObject, kind: GraphKind): string[] {
  return kind === 'pods' || kind === 'persistentvolumes' ? [] : allPodReferences(pod)[kind];
}

/** Every kind's names in one pass over the spec (the graph indexes each pod on each write). */
export function allPodReferences(pod: KObject): PodReferences {
  const spec = (pod.spec ?? {}) as Json;
  const refs: PodReferences = { secrets: [], configmaps: [], serviceaccounts: [spec.serviceAccountName || 'default'], persistentvolumeclaims: [] };
  const add = (to: string[], x: unknown) => { if (x && typeof (x as Json).name === 'string') to.push((x as Json).name); };
  for (const s of spec.imagePullSecrets ?? []) add(refs.secrets, s);
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    for (const c of list ?? []) {
      for (const e of c.env ?? []) {
        add(refs.secrets, e.valueFrom?.secretKeyRef);
        add(refs.configmaps, e.valueFrom?.configMapKeyRef);
      }
      for (const e of c.envFrom ?? []) {
        add(refs.secrets, e.secretRef);
        add(refs.configmaps, e.configMapRef);
      }
    }
  }
  for (const v of (spec.volumes ?? []) as Json[]) {
    if (typeof v.secret?.secretName === 'string') refs.secrets.push(v.secret.secretName);
    add(refs.secrets, v.csi?.nodePublishSecretRef);
    for (const source of Object.values(v)) add(refs.secrets, (source as Json | undefined)?.secretRef); // cephfs, rbd, iscsi, ...
    add(refs.configmaps, v.configMap);
    for (const s of v.projected?.sources ?? []) {
      add(refs.secrets, s.secret);
      add(refs.configmaps, s.configMap);
    }
    if (v.persistentVolumeClaim) refs.persistentvolumeclaims.push(v.persistentVolumeClaim.claimName);
    else if (v.ephemeral) refs.persistentvolumeclaims.push(`${pod.metadata.name}-${v.name}`);
  }
  return refs;
}
