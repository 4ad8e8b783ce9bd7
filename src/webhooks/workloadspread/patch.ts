/**
 * Subset patches (docs/design/webhooks.md §13): when the target exists, each patch is applied
 * (strategic merge, as the pod webhook will apply it) to the target's pod template, with CloneSet
 * and Advanced StatefulSet claim templates added as PVC volumes, and the result must be a valid pod.
 */
import type { KObject } from '../../api/meta.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { clone } from '../../machinery/deep-equal.js';
import { applyStrategicMergePatch } from '../../machinery/patch/strategic-merge-patch.js';
import { builtinPatchSchema } from '../../machinery/patch/builtin-patch-meta.js';
import { defaultPodSpec } from '../../machinery/podspec/pod-spec-defaults.js';
import { validatePodSpec } from '../../machinery/podspec/pod-spec-validation.js';
import { validateAnnotations, validateLabels } from '../../machinery/validation/names.js';
import { child, ensure, has, items, str, stringMap, type Json } from '../../machinery/json.js';
import { groupOf } from '../common/target-ref.js';

/** The target's pod template as a Pod, claim templates mocked in as volumes for Kruise sets. */
function podOf(target: KObject): Json {
  const spec = child(target, 'spec');
  const template = child(spec, 'template') ?? {};
  const pod: Json = { apiVersion: 'v1', kind: 'Pod', metadata: clone(child(template, 'metadata') ?? {}), spec: clone(child(template, 'spec') ?? {}) };
  if (groupOf(target.apiVersion ?? '') === 'apps.kruise.io') {
    const podSpec = ensure(pod, 'spec');
    const volumes = items(podSpec, 'volumes');
    for (const claim of items(spec, 'volumeClaimTemplates')) {
      const name = str(child(claim, 'metadata'), 'name');
      volumes.push({ name, persistentVolumeClaim: { claimName: name } });
    }
    podSpec.volumes = volumes;
  }
  return pod;
}

export function validateSubsetPatches(subsets: Json[], target: KObject): FieldError[] {
  const errs: FieldError[] = [];
  subsets.forEach((subset, i) => {
    if (!has(subset, 'patch')) return;
    const p = `spec.subsets[${i}].patch`;
    let patched: Json;
    try {
      patched = applyStrategicMergePatch(podOf(target), subset.patch, builtinPatchSchema('', 'Pod')) as Json;
    } catch (err) {
      errs.push(field.invalid(p, subset.patch, `failed to apply the patch to the pod template of the target: ${(err as Error).message}`));
      return;
    }
    // The pod webhook patches pods before kube defaults them; validate what the API server will see.
    const podSpec = ensure(patched, 'spec');
    defaultPodSpec(podSpec);
    const meta = child(patched, 'metadata');
    errs.push(...validateLabels(stringMap(meta, 'labels'), `${p}.metadata.labels`));
    errs.push(...validateAnnotations(stringMap(meta, 'annotations'), `${p}.metadata.annotations`));
    errs.push(...validatePodSpec(podSpec, `${p}.spec`));
  });
  return errs;
}
