/**
 * A Pod from a workload's pod template (Kubernetes' GetPodFromTemplate): the template's labels,
 * annotations, finalizers and spec, a controller reference to the workload, and a generateName of
 * `<workload>-` unless the caller names the pod itself.
 */
import type { OwnerReference } from '../../api/meta.js';
import { clone } from '../../machinery/deep-equal.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export interface PodFromTemplateOptions {
  namespace: string;
  template: PodTemplateSpec | undefined;
  ownerRef: OwnerReference;
  /** `<generateName>` prefix; defaults to `<owner name>-`. Ignored when `name` is given. */
  generateName?: string;
  name?: string;
}

export function podFromTemplate(o: PodFromTemplateOptions): Pod {
  const meta = o.template?.metadata ?? {};
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      namespace: o.namespace,
      labels: { ...(meta.labels ?? {}) },
      ownerReferences: [{ ...o.ownerRef }],
    },
    spec: clone(o.template?.spec ?? { containers: [] }),
  };
  if (o.name) pod.metadata.name = o.name;
  else pod.metadata.generateName = o.generateName ?? `${o.ownerRef.name}-`;
  if (meta.annotations && Object.keys(meta.annotations).length > 0) pod.metadata.annotations = { ...meta.annotations };
  if (meta.finalizers && meta.finalizers.length > 0) pod.metadata.finalizers = [...meta.finalizers];
  return pod;
}
