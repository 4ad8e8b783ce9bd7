/**
 * Deletion protection of workloads (docs/design/webhooks.md §12): Deployment, ReplicaSet and StatefulSet
 * (apps/v1) through their own webhooks, CloneSet, Advanced StatefulSet and UnitedDeployment from
 * the DELETE branch of their validating webhooks. `Cascading` holds while `spec.replicas > 0`.
 */
import type { KObject } from '../../api/meta.js';
import type { FieldError } from '../../machinery/errors.js';
import type { KindWebhooks, AdmissionInput } from '../kind-webhook.js';
import { deletionProtectionMetrics } from './metrics.js';
import { checkProtection, deny, messages, username } from './rules.js';

/** Throws AdmissionDenied(403) when deleting this workload (CloneSet, ASTS, UD, Deployment ...) is forbidden. */
export async function checkWorkloadDeletion(input: AdmissionInput): Promise<void> {
  const kind = input.request.kind.kind;
  const found = await checkProtection(input, kind, true, (name, namespace) =>
    deletionProtectionMetrics.workloadDeletion.inc({ kind_namespace_name: `${kind}_${namespace}_${name}`, username: username(input) }));
  if (!found) return;
  const replicas = (found.obj.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas === 'number' && replicas > 0) await deny(input, found.denial, messages.cascading(`replicas ${replicas}>0`));
}

/**
 * The validate hook of a workload whose validating webhook also sees DELETEs (CloneSet, Advanced
 * StatefulSet, UnitedDeployment): a DELETE runs deletion protection only; CREATE and UPDATE run
 * `check`, with the old object on UPDATE.
 */
export function withDeletionProtection(check: (obj: KObject, old: KObject | undefined, input: AdmissionInput) => FieldError[] | Promise<FieldError[]>) {
  return async (input: AdmissionInput): Promise<FieldError[]> => {
    if (input.request.operation === 'DELETE') {
      await checkWorkloadDeletion(input);
      return [];
    }
    return check(input.object as KObject, input.request.operation === 'UPDATE' ? input.oldObject : undefined, input);
  };
}

const workloadProtection: KindWebhooks = {
  async validate(input) {
    await checkWorkloadDeletion(input);
    return [];
  },
};

export const deploymentProtectionWebhooks: KindWebhooks = workloadProtection;
export const replicaSetProtectionWebhooks: KindWebhooks = workloadProtection;
export const statefulSetProtectionWebhooks: KindWebhooks = workloadProtection;
