/**
 * pods/binding: the scheduler's write of spec.nodeName. The Binding is admitted as a CREATE on the
 * subresource; its uid and resourceVersion are preconditions on the pod and its annotations are
 * copied onto the pod, which is marked PodScheduled.
 */
import type { KObject } from '../../../api/meta.js';
import { errors } from '../../../machinery/errors.js';
import { StoreError } from '../../storage/store.js';
import { storeErrorToStatus, timestamp } from '../core.js';
import { admitSubresourceCreate, createdStatus, type SubresourceStorage, type SubresourceTarget } from '../subresource.js';
import { loadCurrent } from '../update.js';

interface PodShape {
  spec?: { nodeName?: string; schedulingGates?: unknown[] };
  status?: { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
}

export const podBindingSubresource: SubresourceStorage = {
  async create(target, body) {
    await bindPod(target, body);
    return createdStatus();
  },
};

async function bindPod(target: SubresourceTarget, body: KObject): Promise<void> {
  const { core, resource: pods, namespace, name, ctx } = target;
  const binding = await admitSubresourceCreate(target, 'binding', 'Binding', body);
  const node = (binding.target as { name?: string; kind?: string } | undefined)?.name;
  if (!node) throw errors.invalid('Binding', name, '', [{ type: 'FieldValueRequired', field: 'target.name' }]);
  await core.admission.validate({ operation: 'CREATE', resource: pods, subresource: 'binding', namespace, name, object: binding, ctx });
  const { uid, resourceVersion, annotations } = binding.metadata;
  for (let attempt = 0; ; attempt++) {
    const current = loadCurrent(core, pods, namespace, name);
    const pod = structuredClone(current.object) as KObject & PodShape;
    checkBindingPreconditions(pod, uid, resourceVersion);
    const refuse = (why: string) => errors.conflict('pods/binding', name, '', why);
    if (pod.metadata.deletionTimestamp) throw refuse(`pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec?.nodeName) throw refuse(`pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    if ((pod.spec?.schedulingGates ?? []).length > 0) throw refuse(`pod ${name} has non-empty .spec.schedulingGates`);
    pod.spec = { ...pod.spec, nodeName: node };
    // The binding's annotations are copied onto the pod, so a webhook may annotate through it.
    if (annotations && Object.keys(annotations).length > 0) pod.metadata.annotations = { ...pod.metadata.annotations, ...annotations };
    const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: timestamp(core.now()) });
    pod.status = { ...pod.status, conditions };
    if (ctx.dryRun) return;
    try {
      await core.store.update(current.key, pod, current.rv);
      return;
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 'Conflict') || attempt > 20) throw storeErrorToStatus(e, pods, name);
    }
  }
}

/** The binding's uid and resourceVersion are preconditions on the pod, failing as kube's storage reports it. */
function checkBindingPreconditions(pod: KObject, uid: string | undefined, resourceVersion: string | undefined): void {
  const m = pod.metadata;
  // The key in the message is etcd's as kube-apiserver prints it, not one of ours.
  const failed = (why: string) => errors.conflict('pods', m.name!, '',
    `StorageError: invalid object, Code: 4, Key: /registry/pods/${m.namespace}/${m.name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ${why}`);
  if (uid && uid !== m.uid) throw failed(`UID in precondition: ${uid}, UID in object meta: ${m.uid}`);
  if (resourceVersion && resourceVersion !== m.resourceVersion) throw failed(`ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion}`);
}
