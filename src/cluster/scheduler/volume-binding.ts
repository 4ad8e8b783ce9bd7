/**
 * kube-scheduler's VolumeBinding plugin over the claim, volume and class caches
 * (docs/design/storage-provisioning.md §4): PreFilter rejects a pod whose claim is missing or is an
 * unbound `Immediate` claim; Filter keeps nodes a bound volume's node affinity allows; PreBind writes
 * `volume.kubernetes.io/selected-node` on unbound `WaitForFirstConsumer` claims and waits until the
 * provisioner has bound them before the pod is bound.
 */
import { PersistentVolumeClaims } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { requiredNodeMatcher, type NodeMatcher } from '../../machinery/scheduling/index.js';
import type { Informer } from '../../runtime/informer.js';
import { unresolvable, type FilterStatus } from './filters.js';
import type { NodeInfo } from './node-info.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../api/core/index.js';

export const selectedNodeAnnotation = 'volume.kubernetes.io/selected-node';
export const REASON_VOLUME_AFFINITY = 'node(s) had volume node affinity conflict';
export const REASON_MISSING_PV = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';

export interface VolumeFilterState {
  /** Node affinities of the bound volumes. */
  affinities: NodeMatcher[];
  missingVolume: boolean;
  /** Unbound WaitForFirstConsumer claims the PreBind step hands to the provisioner. */
  delayed: PersistentVolumeClaim[];
}

/** The claim names a pod uses: its persistentVolumeClaim volumes and its generic ephemeral volumes (`<pod>-<volume>`). */
export function podClaimNames(pod: Pod): string[] {
  return (pod.spec?.volumes ?? []).flatMap((v) => {
    if (v.persistentVolumeClaim?.claimName) return [v.persistentVolumeClaim.claimName];
    return v.ephemeral ? [`${pod.metadata.name}-${v.name}`] : [];
  });
}

export class VolumeBinding {
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly claims: Informer<PersistentVolumeClaim>,
    private readonly volumes: Informer<PersistentVolume>,
    private readonly classes: Informer<StorageClass>,
  ) {}

  /** Called on every claim event: PreBind waits re-check. */
  claimChanged(): void {
    for (const w of [...this.waiters]) w();
  }

  /** PreFilter: a message for a pod that cannot be scheduled anywhere, else the Filter's state (undefined without claims). */
  prepare(pod: Pod): string | VolumeFilterState | undefined {
    const names = podClaimNames(pod);
    if (names.length === 0) return undefined;
    const state: VolumeFilterState = { affinities: [], missingVolume: false, delayed: [] };
    for (const name of names) {
      const claim = this.claims.get(pod.metadata.namespace, name);
      if (!claim) return `persistentvolumeclaim "${name}" not found`;
      if (claim.metadata.deletionTimestamp) return `persistentvolumeclaim "${name}" is being deleted`;
      const volumeName = claim.spec?.volumeName;
      if (volumeName) {
        const pv = this.volumes.get(undefined, volumeName);
        if (!pv) state.missingVolume = true;
        const required = pv?.spec?.nodeAffinity?.required;
        if (required) state.affinities.push(requiredNodeMatcher({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: required } } }));
        continue;
      }
      const cls = this.classes.get(undefined, claim.spec?.storageClassName ?? '');
      if (cls?.volumeBindingMode !== 'WaitForFirstConsumer') return 'pod has unbound immediate PersistentVolumeClaims';
      state.delayed.push(claim);
    }
    return state;
  }

  static filter(state: VolumeFilterState, node: NodeInfo): FilterStatus | undefined {
    if (state.missingVolume) return unresolvable(REASON_MISSING_PV);
    return state.affinities.every((m) => m(node.labels, node.name)) ? undefined : unresolvable(REASON_VOLUME_AFFINITY);
  }

  /** PreBind: select the node on each delayed claim, then wait until every one is bound (or gone). */
  async preBind(client: Client, state: VolumeFilterState, node: string, stopped: () => boolean): Promise<void> {
    for (const claim of state.delayed) {
      if (claim.metadata.annotations?.[selectedNodeAnnotation] === node) continue;
      await client.patch(PersistentVolumeClaims, claim.metadata.namespace, claim.metadata.name!, 'merge',
        { metadata: { annotations: { [selectedNodeAnnotation]: node } } });
    }
    const bound = () => state.delayed.every((c) => {
      const now = this.claims.get(c.metadata.namespace, c.metadata.name!);
      return !now || !!now.spec?.volumeName;
    });
    while (!bound() && !stopped()) {
      await new Promise<void>((resolve) => {
        const wake = () => { this.waiters.delete(wake); resolve(); };
        this.waiters.add(wake);
      });
    }
  }

  /** Releases every PreBind wait (the scheduler is stopping). */
  wakeAll(): void {
    this.claimChanged();
  }
}
