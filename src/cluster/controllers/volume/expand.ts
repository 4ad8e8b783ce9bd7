/**
 * Volume expansion of a bound claim whose storage request grew (docs/design/storage-provisioning.md §6),
 * in the steps and words of the CSI external-resizer and the kubelet with kube 1.32's
 * RecoverVolumeExpansionFailure on: (1) condition `Resizing`, allocatedResources and
 * `ControllerResizeInProgress`; (2) the volume's capacity; (3) condition `FileSystemResizePending`
 * and `NodeResizePending`; (4) once a running pod on a node uses the claim, the kubelet's file
 * system resize: status capacity, no conditions, no resize statuses.
 */
import { PersistentVolumeClaims, PersistentVolumes } from '../../../api/resource-type.js';
import { updateLatest } from '../../../client/update-latest.js';
import { rfc3339 } from '../../../machinery/time.js';
import { compareQuantities } from '../../../machinery/quantity.js';
import type { ClaimDeps } from './claims.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../../api/core/index.js';

export const fsResizePendingMessage = 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.';

/** `fields` over `status`, a null field removing it (what the merge patch did). */
function withFields(status: object | undefined, fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...status };
  for (const [k, v] of Object.entries(fields)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

const greater = (a: string | undefined, b: string | undefined) => a !== undefined && (b === undefined || compareQuantities(a, b) > 0);

/** Running pods on a node that mount the claim. */
function mountingPods(d: ClaimDeps, claim: PersistentVolumeClaim): Pod[] {
  return d.podsUsing(claim.metadata.namespace ?? '', claim.metadata.name!).filter((p) => p.spec.nodeName && p.status?.phase === 'Running');
}

export async function expandStep(d: ClaimDeps, claim: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
  const want = claim.spec?.resources?.requests?.storage;
  const have = claim.status?.capacity?.storage;
  if (!greater(want, have)) return;
  const conditions = claim.status?.conditions ?? [];
  const now = rfc3339(d.clock.now());
  // an update of what the cache holds: a conflict means the claim moved on, and the step is re-run from its event
  const writeStatus = (status: Record<string, unknown>) => d.client.updateStatus(PersistentVolumeClaims, { ...claim, status: withFields(claim.status, status) });
  const pending = conditions.some((c) => c.type === 'FileSystemResizePending');
  const resizing = conditions.some((c) => c.type === 'Resizing');
  if (!pending && !resizing) {
    d.events.event(claim, 'Normal', 'Resizing', `External resizer is resizing volume ${pv.metadata.name}`);
    await writeStatus({
      conditions: [{ type: 'Resizing', status: 'True', lastProbeTime: null, lastTransitionTime: now }],
      allocatedResources: { storage: want }, allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' },
    });
    return;
  }
  if (resizing) {
    if (greater(want, pv.spec?.capacity?.storage)) {
      await updateLatest(d.client, PersistentVolumes, pv, (v) => { v.spec = { ...v.spec, capacity: { ...v.spec?.capacity, storage: want! } }; });
      return;
    }
    d.events.event(claim, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node');
    await writeStatus({
      conditions: [{ type: 'FileSystemResizePending', status: 'True', lastProbeTime: null, lastTransitionTime: now, message: fsResizePendingMessage }],
      allocatedResourceStatuses: { storage: 'NodeResizePending' },
    });
    return;
  }
  const pod = mountingPods(d, claim)[0];
  if (!pod) return;
  await writeStatus({ capacity: { storage: pv.spec?.capacity?.storage }, conditions: null, allocatedResourceStatuses: null });
  d.events.event(pod, 'Normal', 'FileSystemResizeSuccessful', `MountVolume.NodeExpandVolume succeeded for volume "${pv.metadata.name}" ${pod.spec.nodeName}`);
}
