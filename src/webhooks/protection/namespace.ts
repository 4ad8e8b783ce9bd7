/**
 * Deletion protection of namespaces (docs/design/webhooks.md §12): `Cascading` holds while the namespace
 * has an active pod, or else a Bound PersistentVolumeClaim that is not being deleted.
 */
import type { KObject } from '../../api/meta.js';
import { PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import type { AdmissionInput, KindWebhooks } from '../kind-webhook.js';
import { deletionProtectionMetrics } from './metrics.js';
import { checkProtection, deny, messages, username } from './rules.js';

/** Not being deleted and not finished (kube's IsPodActive). */
function isActivePod(pod: KObject): boolean {
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  return !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

function isBoundClaim(pvc: KObject): boolean {
  return !pvc.metadata.deletionTimestamp && (pvc.status as { phase?: string } | undefined)?.phase === 'Bound';
}

async function checkNamespaceDeletion(input: AdmissionInput): Promise<void> {
  const found = await checkProtection(input, 'Namespace', false, (name) =>
    deletionProtectionMetrics.namespaceDeletion.inc({ name, username: username(input) }));
  if (!found) return;
  const { denial } = found;
  const pods = await input.client.list(Pods, { namespace: denial.name }).catch((err: unknown) => deny(input, denial, messages.listFailed('pods', err)));
  const active = pods.items.filter(isActivePod).length;
  if (active > 0) await deny(input, denial, messages.cascading(`active pods ${active}>0`));

  const claims = await input.client.list(PersistentVolumeClaims, { namespace: denial.name }).catch((err: unknown) => deny(input, denial, messages.listFailed('pvc', err)));
  const bound = claims.items.filter(isBoundClaim).length;
  if (bound > 0) await deny(input, denial, messages.cascading(`"Bound" status pvc ${bound}>0`));
}

export const namespaceProtectionWebhooks: KindWebhooks = {
  async validate(input) {
    await checkNamespaceDeletion(input);
    return [];
  },
};
