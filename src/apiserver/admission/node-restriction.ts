/**
 * kube-apiserver's NodeRestriction admission plugin (docs/design/authorization.md §17): a kubelet
 * (`system:node:<name>` in `system:nodes`) may write only its own Node (and not the labels kube keeps
 * from kubelets, nor its taints once registered), its own Lease and CSINode, the status of pods bound
 * to it, mirror pods bound to it, and tokens bound to its pods. Refusals are kube's 403s, word for word.
 */
import type { KObject } from '../../api/meta.js';
import { errors, type StatusError } from '../../machinery/errors.js';
import type { AdmissionAttributes } from '../registry/context.js';
import type { RegistryReader } from '../registry/reader.js';
import { podReferences } from '../authz/pod-references.js';
import { nodeNameOf } from '../authz/node-authorizer.js';
import { forbiddenNodeLabels } from './node-labels.js';

type Json = Record<string, any>; // any: objects are read field by field
const mirrorAnnotation = 'kubernetes.io/config.mirror';
const specOf = (o: KObject | undefined): Json => (o?.spec ?? {}) as Json;

function forbidden(a: AdmissionAttributes, message: string): StatusError {
  const { group, plural } = a.resource.definition;
  const name = a.name ?? a.object?.metadata.name ?? '';
  const resource = group ? `${plural}.${group}` : plural;
  return errors.forbidden(`${resource}${name ? ` "${name}"` : ''} is forbidden: ${message}`, { ...(name ? { name } : {}), ...(group ? { group } : {}), kind: plural });
}

export function nodeRestriction(reader: RegistryReader) {
  const pods = reader.table.lookup('', 'v1', 'pods')!;
  const checkNode = (node: string, a: AdmissionAttributes): void => {
    const requested = a.name ?? a.object?.metadata.name ?? '';
    if (a.operation === 'CREATE') {
      const labels = forbiddenNodeLabels(a.object?.metadata.labels ?? {}, {});
      if (labels.length) throw forbidden(a, `node "${node}" is not allowed to set the following labels: ${labels.join(', ')}`);
    }
    if (requested !== node) throw forbidden(a, `node "${node}" is not allowed to modify node "${requested}"`);
    if (a.operation !== 'UPDATE' || !a.object || !a.oldObject) return;
    if (JSON.stringify(specOf(a.object).taints ?? []) !== JSON.stringify(specOf(a.oldObject).taints ?? [])) throw forbidden(a, `node "${node}" is not allowed to modify taints`);
    const labels = forbiddenNodeLabels(a.object.metadata.labels ?? {}, a.oldObject.metadata.labels ?? {});
    if (labels.length) throw forbidden(a, `is not allowed to modify labels: ${labels.join(', ')}`);
  };
  const checkPod = (node: string, a: AdmissionAttributes): void => {
    const existing = () => (a.oldObject ?? reader.getStored(pods, a.namespace, a.name ?? '')) as KObject | undefined;
    if (a.operation === 'CREATE' && !a.subresource) {
      const pod = a.object!;
      if (pod.metadata.annotations?.[mirrorAnnotation] === undefined) throw forbidden(a, `pod does not have "${mirrorAnnotation}" annotation, node "${node}" can only create mirror pods`);
      if (specOf(pod).nodeName !== node) throw forbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
      if (specOf(pod).serviceAccountName) throw forbidden(a, `node "${node}" can not create pods that reference a service account`);
      for (const kind of ['secrets', 'configmaps', 'persistentvolumeclaims'] as const) {
        if (podReferences(pod, kind).length) throw forbidden(a, `node "${node}" can not create pods that reference ${kind}`);
      }
    } else if (a.operation === 'UPDATE' && a.subresource === 'status') {
      if (specOf(existing()).nodeName !== node) throw forbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
    } else if (a.operation === 'CREATE' && a.subresource === 'eviction') {
      const pod = existing();
      if (pod && specOf(pod).nodeName !== node) throw forbidden(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
    } else if (a.operation === 'DELETE') {
      const pod = existing();
      if (pod && specOf(pod).nodeName !== node) throw forbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
    }
  };
  const checkToken = (node: string, a: AdmissionAttributes): void => {
    const ref = (specOf(a.object).boundObjectRef ?? undefined) as { kind?: string; name?: string; uid?: string } | undefined;
    if (ref?.kind !== 'Pod') throw forbidden(a, 'node requested token not bound to a pod');
    if (!ref.uid) throw forbidden(a, 'node requested token with a pod binding without a uid');
    const pod = reader.getStored(pods, a.namespace, ref.name ?? '');
    if (!pod) return; // the token storage answers 404
    if (pod.metadata.uid !== ref.uid) throw forbidden(a, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    if (specOf(pod).nodeName !== node) throw forbidden(a, 'node requested token bound to a pod scheduled on a different node');
  };
  const sameName = (node: string, a: AdmissionAttributes, what: string): void => {
    const name = a.name ?? a.object?.metadata.name;
    if (name !== node) throw forbidden(a, `can only access ${what} with the same name as the requesting node`);
  };

  return {
    async mutate(a: AdmissionAttributes): Promise<void> {
      const node = nodeNameOf(a.ctx.user);
      if (node === undefined) return;
      const { group, plural } = a.resource.definition;
      switch (`${group}/${plural}`) {
        case '/nodes': return checkNode(node, a);
        case '/pods': return checkPod(node, a);
        case '/serviceaccounts': if (a.subresource === 'token') checkToken(node, a); return;
        case 'coordination.k8s.io/leases': sameName(node, a, 'node lease'); return;
        case 'storage.k8s.io/csinodes': sameName(node, a, 'CSINode'); return;
      }
    },
  };
}
