/**
 * Deletion protection of workloads (multidomain spec D): label policy.kruise.io/delete-protection.
 * PLACEHOLDER: the protection helper replaces this with the real rules.
 */
import type { AdmissionInput } from '../kind-webhook.js';

/** Throws AdmissionDenied(403) when deleting this workload (CloneSet, ASTS, UD, Deployment ...) is forbidden. */
export async function checkWorkloadDeletion(_input: AdmissionInput): Promise<void> {
  return undefined;
}
