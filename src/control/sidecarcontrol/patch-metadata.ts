/**
 * patchPodMetadata (docs/design/sidecarset.md §2.5): Retain adds an annotation only when absent,
 * Overwrite sets it, MergePatchJson merges the value as a JSON merge patch (RFC 7386) into the
 * existing JSON value (or sets it when absent or empty). Returns whether the pod changed.
 */
import type { Pod } from '../../api/core/index.js';
import type { SidecarSetSpec } from '../../api/kruise/ops/sidecarset.js';
import { applyMergePatch } from '../../machinery/patch/merge-patch.js';

export function applyPatchPodMetadata(pod: Pod, patches: SidecarSetSpec['patchPodMetadata'], options: { retainOnly?: boolean } = {}): boolean {
  let changed = false;
  for (const patch of patches ?? []) {
    const policy = patch.patchPolicy ?? 'Retain';
    for (const [key, value] of Object.entries(patch.annotations ?? {})) {
      const annotations = (pod.metadata.annotations ??= {});
      const current = annotations[key];
      let next: string;
      if (policy === 'Retain' || (options.retainOnly && current !== undefined)) {
        if (current !== undefined) continue;
        next = value;
      } else if (policy === 'Overwrite' || !current) {
        next = value;
      } else {
        try {
          next = JSON.stringify(applyMergePatch(JSON.parse(current), JSON.parse(value)));
        } catch (e) {
          throw new Error(`patch pod annotation ${key} (MergePatchJson) failed: ${(e as Error).message}`);
        }
      }
      if (next !== current) {
        annotations[key] = next;
        changed = true;
      }
    }
  }
  return changed;
}
