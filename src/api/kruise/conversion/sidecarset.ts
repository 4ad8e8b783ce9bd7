/**
 * SidecarSet v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1alpha1 `spec.namespace: X`
 * becomes `namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: X}}` (and wins over an
 * explicit namespaceSelector); the custom-version label moves to `spec.customVersion`. Back in
 * v1alpha1 the selector is copied as is (namespace stays empty) and customVersion is the label again.
 */
import { SidecarSetCustomVersionLabel } from '../ops/sidecarset-keys.js';
import { deleteMetaValue, metaValue, setMetaValue, specOf, type KindConversion, type MetaLike } from './helpers.js';

/** Namespace label every namespace carries (Kubernetes ≥ 1.21). */
export const NamespaceNameLabel = 'kubernetes.io/metadata.name';

export const sidecarSetConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'SidecarSet',
  spokes: {
    v1alpha1: {
      toHub(obj) {
        const spec = specOf(obj);
        const meta = (obj.metadata ??= {}) as MetaLike;
        if (spec) {
          if (typeof spec.namespace === 'string' && spec.namespace !== '') {
            spec.namespaceSelector = { matchLabels: { [NamespaceNameLabel]: spec.namespace } };
          }
          delete spec.namespace;
        }
        const version = metaValue(meta, 'labels', SidecarSetCustomVersionLabel);
        if (version !== undefined) {
          if (spec && version !== '') spec.customVersion = version;
          deleteMetaValue(meta, 'labels', SidecarSetCustomVersionLabel);
        }
        return obj;
      },
      fromHub(obj) {
        const spec = specOf(obj);
        if (typeof spec?.customVersion === 'string' && spec.customVersion !== '') {
          setMetaValue((obj.metadata ??= {}) as MetaLike, 'labels', SidecarSetCustomVersionLabel, spec.customVersion);
        }
        delete spec?.customVersion;
        return obj;
      },
    },
  },
};
