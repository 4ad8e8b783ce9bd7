/**
 * Advanced DaemonSet v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). The deprecated v1alpha1
 * rollingUpdateType `Surging` becomes `Standard` with maxSurge 1 / maxUnavailable 0 where unset
 * (what its defaulting meant); annotation `daemonset.kruise.io/progressive-create-pod: "true"` ⇄
 * `scaleStrategy.partitionedScaling: true`; status `daemonSetHash` ⇄ `updateRevision`.
 */
import { ProgressiveCreatePodAnnotation, RollingUpdateType } from '../workloads/daemonset.js';
import { child, deleteMetaValue, metaValue, setMetaValue, specOf, statusOf, type KindConversion, type MetaLike } from './helpers.js';

export const daemonSetConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'DaemonSet',
  spokes: {
    v1alpha1: {
      toHub(obj) {
        const spec = specOf(obj);
        const rollingUpdate = child(child(spec, 'updateStrategy'), 'rollingUpdate');
        if (rollingUpdate?.rollingUpdateType === RollingUpdateType.Surging) {
          rollingUpdate.rollingUpdateType = RollingUpdateType.Standard;
          rollingUpdate.maxSurge ??= 1;
          rollingUpdate.maxUnavailable ??= 0;
        }
        const meta = (obj.metadata ??= {}) as MetaLike;
        if (spec && metaValue(meta, 'annotations', ProgressiveCreatePodAnnotation) === 'true') {
          spec.scaleStrategy = { partitionedScaling: true };
          deleteMetaValue(meta, 'annotations', ProgressiveCreatePodAnnotation);
        }
        const status = statusOf(obj);
        if (status && 'daemonSetHash' in status) {
          // v1beta1's updateRevision is omitted when empty.
          if (status.daemonSetHash !== '') status.updateRevision = status.daemonSetHash;
          delete status.daemonSetHash;
        }
        return obj;
      },
      fromHub(obj) {
        const spec = specOf(obj);
        if (child(spec, 'scaleStrategy')?.partitionedScaling === true) {
          setMetaValue((obj.metadata ??= {}) as MetaLike, 'annotations', ProgressiveCreatePodAnnotation, 'true');
        }
        delete spec?.scaleStrategy;
        const status = statusOf(obj);
        if (status) {
          // v1alpha1 always writes daemonSetHash.
          status.daemonSetHash = status.updateRevision ?? '';
          delete status.updateRevision;
        }
        return obj;
      },
    },
  },
};
