/**
 * A new daemon pod (docs/design/advanced-daemonset.md §4): `generateName: <ds>-`, the current template's labels plus
 * `controller-revision-hash: <hash>` (and `pod-template-generation` when the DaemonSet carries the
 * deprecated annotation), the default daemon tolerations, required node affinity pinning it to its
 * node (the scheduler binds it), the InPlaceUpdateReady gate under InPlaceIfPossible, and the
 * controller reference.
 */
import { DeprecatedTemplateGenerationAnnotation, PodTemplateGenerationLabel } from '../../api/kruise/workloads/daemonset.js';
import { ControllerRevisionHashLabel, InPlaceUpdateReadyCondition } from '../../api/kruise/workloads/labels.js';
import type { ObjectMeta } from '../../api/meta.js';
import { pinToNode, withDaemonTolerations } from '../../machinery/scheduling/index.js';
import { isInPlaceIfPossible } from './budget.js';
import { daemonSetOwnerRef, type DaemonSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export function newDaemonPod(ds: DaemonSet, nodeName: string, hash: string): Pod {
  const template = structuredClone(ds.spec.template) as { metadata?: ObjectMeta; spec?: Pod['spec'] };
  const spec = template.spec ?? { containers: [] };
  spec.tolerations = withDaemonTolerations(spec);
  spec.affinity = pinToNode(spec.affinity, nodeName);
  if (isInPlaceIfPossible(ds) && !(spec.readinessGates ?? []).some((g) => g.conditionType === InPlaceUpdateReadyCondition)) {
    spec.readinessGates = [...(spec.readinessGates ?? []), { conditionType: InPlaceUpdateReadyCondition }];
  }
  const generation = ds.metadata.annotations?.[DeprecatedTemplateGenerationAnnotation];
  const labels = {
    ...template.metadata?.labels, [ControllerRevisionHashLabel]: hash,
    ...(generation !== undefined ? { [PodTemplateGenerationLabel]: generation } : {}),
  };
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
      ...(template.metadata?.finalizers ? { finalizers: template.metadata.finalizers } : {}),
      generateName: `${ds.metadata.name}-`, namespace: ds.metadata.namespace, labels, ownerReferences: [daemonSetOwnerRef(ds)],
    },
    spec,
  };
}
