/**
 * Deletion protection of workloads (multidomain spec D): Deployment, ReplicaSet and StatefulSet
 * (apps/v1) through their own webhooks, CloneSet, Advanced StatefulSet and UnitedDeployment from
 * the DELETE branch of their validating webhooks. `Cascading` holds while `spec.replicas > 0`.
 */
import { DeletionProtection } from '../../api/kruise/workloads/labels.js';
import type { KindWebhooks, AdmissionInput } from '../kind-webhook.js';
import { deletionProtectionMetrics } from './metrics.js';
import { deny, messages, protectedObject, protectionValue, username, type Denial } from './rules.js';

/** Throws AdmissionDenied(403) when deleting this workload (CloneSet, ASTS, UD, Deployment ...) is forbidden. */
export async function checkWorkloadDeletion(input: AdmissionInput): Promise<void> {
  const obj = protectedObject(input);
  const value = obj && protectionValue(obj);
  if (!obj || !value) return;
  const kind = input.request.kind.kind;
  const namespace = obj.metadata.namespace ?? input.request.namespace ?? '';
  const name = obj.metadata.name ?? input.request.name ?? '';
  const denial: Denial = {
    kind, namespace, name,
    count: () => deletionProtectionMetrics.workloadDeletion.inc({ kind_namespace_name: `${kind}_${namespace}_${name}`, username: username(input) }),
  };
  if (value === DeletionProtection.Always) await deny(input, denial, messages.always());
  const replicas = (obj.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas === 'number' && replicas > 0) await deny(input, denial, messages.cascading(`replicas ${replicas}>0`));
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
