/**
 * PodUnavailableBudget (policy.kruise.io) v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1alpha1
 * annotations `kruise.io/pub-protect-operations` (comma list) and `pub.kruise.io/protect-total-replicas`
 * become `spec.protectOperations` / `spec.protectTotalReplicas`; an unknown operation or a
 * non-int32 replica count cannot be converted. Back in v1alpha1 the fields are written as the two
 * annotations, and `spec.ignoredPodSelector` (v1beta1 only) is dropped.
 */
import { PubOperations, PubProtectOperationAnnotation, PubProtectTotalReplicasAnnotation } from '../ops/podunavailablebudget.js';
import {
  ConversionError, deleteMetaValue, ensureChild, metaValue, parseInt32, setMetaValue, specOf, type KindConversion, type MetaLike,
} from './helpers.js';

const operations = new Set<string>(PubOperations);

/** The operations of the annotation, or undefined when it names none. */
function parseOperations(raw: string): string[] | undefined {
  const ops = raw.split(',').map((op) => op.trim()).filter((op) => op !== '');
  const bad = ops.filter((op) => !operations.has(op));
  if (bad.length > 0) {
    throw new ConversionError(`annotation ${PubProtectOperationAnnotation}: unsupported operation ${bad.map((b) => JSON.stringify(b)).join(', ')} (want ${PubOperations.join(', ')})`);
  }
  return ops.length > 0 ? ops : undefined;
}

function parseReplicas(raw: string): number {
  const n = parseInt32(raw);
  if (n === undefined) throw new ConversionError(`annotation ${PubProtectTotalReplicasAnnotation}: ${JSON.stringify(raw)} is not an int32`);
  return n;
}

export const podUnavailableBudgetConversion: KindConversion = {
  group: 'policy.kruise.io',
  kind: 'PodUnavailableBudget',
  spokes: {
    v1alpha1: {
      toHub(obj) {
        const meta = (obj.metadata ??= {}) as MetaLike;
        const rawOps = metaValue(meta, 'annotations', PubProtectOperationAnnotation);
        const ops = rawOps ? parseOperations(rawOps) : undefined;
        const rawReplicas = metaValue(meta, 'annotations', PubProtectTotalReplicasAnnotation);
        const replicas = rawReplicas ? parseReplicas(rawReplicas) : undefined;
        if (ops) {
          ensureChild(obj, 'spec').protectOperations = ops;
          deleteMetaValue(meta, 'annotations', PubProtectOperationAnnotation);
        }
        if (replicas !== undefined) {
          ensureChild(obj, 'spec').protectTotalReplicas = replicas;
          deleteMetaValue(meta, 'annotations', PubProtectTotalReplicasAnnotation);
        }
        return obj;
      },
      fromHub(obj) {
        const spec = specOf(obj);
        if (!spec) return obj;
        const meta = (obj.metadata ??= {}) as MetaLike;
        if (Array.isArray(spec.protectOperations) && spec.protectOperations.length > 0) {
          setMetaValue(meta, 'annotations', PubProtectOperationAnnotation, spec.protectOperations.join(','));
        }
        if (typeof spec.protectTotalReplicas === 'number') {
          setMetaValue(meta, 'annotations', PubProtectTotalReplicasAnnotation, String(spec.protectTotalReplicas));
        }
        delete spec.protectOperations;
        delete spec.protectTotalReplicas;
        delete spec.ignoredPodSelector;
        return obj;
      },
    },
  },
};
