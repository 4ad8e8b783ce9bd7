/**
 * Deletion protection of CustomResourceDefinitions (docs/design/webhooks.md §12): `Cascading` needs gate
 * DeletionProtectionForCRDCascadingGate (denied outright without it) and holds while any custom
 * resource of the CRD, in any namespace, is not being deleted. CRs are listed at the storage version.
 */
import type { KObject } from '../../api/meta.js';
import type { ResourceType } from '../../api/resource-type.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { deletionProtectionMetrics } from './metrics.js';
import { checkProtection, CrdCascadingGate, deny, errorText, messages, username } from './rules.js';

interface CrdSpec {
  group?: string;
  scope?: string;
  names?: { plural?: string; kind?: string };
  /** apiextensions.k8s.io/v1beta1 only. */
  version?: string;
  versions?: { name?: string; storage?: boolean }[];
}

/** The CRD's custom resources at their storage version (v1 `versions[].storage`, or v1beta1 `version`). */
export function storageResourceOf(crd: KObject): ResourceType {
  const spec = (crd.spec ?? {}) as CrdSpec;
  const version = spec.versions?.find((v) => v.storage)?.name ?? spec.version ?? spec.versions?.[0]?.name ?? '';
  return {
    group: spec.group ?? '', version, resource: spec.names?.plural ?? '', kind: spec.names?.kind ?? '', namespaced: spec.scope !== 'Cluster',
  };
}

async function checkCrdDeletion(input: AdmissionInput): Promise<void> {
  const found = await checkProtection(input, 'CustomResourceDefinition', false, (name) =>
    deletionProtectionMetrics.crdDeletion.inc({ name, username: username(input) }));
  if (!found) return;
  const { obj: crd, denial } = found;
  if (!input.gate(CrdCascadingGate)) await deny(input, denial, `feature-gate ${CrdCascadingGate} is not enabled`);

  const type = storageResourceOf(crd);
  const gvk = `${type.group}/${type.version}, Kind=${type.kind}`; // Go's GroupVersionKind.String()
  const crs = await input.client.list(type).catch((err: unknown) => deny(input, denial, `failed to list CRs of ${gvk}: ${errorText(err)}`));
  const active = crs.items.filter((cr) => !cr.metadata.deletionTimestamp).length;
  if (active > 0) await deny(input, denial, messages.cascading(`active CRs ${active}>0`));
}

export const crdProtectionWebhooks: KindWebhooks = {
  async validate(input) {
    await checkCrdDeletion(input);
    return [];
  },
};
