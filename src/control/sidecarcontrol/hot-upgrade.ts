/**
 * Hot-upgrade slots (docs/design/sidecarset.md §6): a HotUpgrade sidecar `envoy` lives in the pod as
 * `envoy-1` and `envoy-2`; one runs the real image (the working one, named in annotation
 * `kruise.io/sidecarset-working-hotupgrade-container`), the other the hotUpgradeEmptyImage. Each copy
 * reads its version through SIDECARSET_VERSION / SIDECARSET_VERSION_ALT from the pod annotations
 * `version.sidecarset.kruise.io/<copy>` and `versionalt.sidecarset.kruise.io/<copy>`.
 */
import type { Container, Pod } from '../../api/core/index.js';
import {
  SidecarSetVersionAltAnnotationPrefix, SidecarSetVersionAltEnv, SidecarSetVersionAnnotationPrefix, SidecarSetVersionEnv,
  SidecarSetWorkingHotUpgradeContainerAnnotation, type SidecarContainer,
} from '../../api/kruise/ops/sidecarset.js';

export const isHotUpgrade = (c: SidecarContainer): boolean => c.upgradeStrategy?.upgradeType === 'HotUpgrade';

export const hotUpgradeNames = (name: string): [string, string] => [`${name}-1`, `${name}-2`];

const fieldEnv = (name: string, annotation: string) => ({
  name, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: `metadata.annotations['${annotation}']` } },
});

function copy(built: Container, name: string, image: string | undefined): Container {
  const env = (built.env ?? []).filter((e) => e.name !== SidecarSetVersionEnv && e.name !== SidecarSetVersionAltEnv);
  return {
    ...structuredClone(built), name, image,
    env: [...env, fieldEnv(SidecarSetVersionEnv, SidecarSetVersionAnnotationPrefix + name), fieldEnv(SidecarSetVersionAltEnv, SidecarSetVersionAltAnnotationPrefix + name)],
  };
}

/** The two copies of a built hot-upgrade sidecar, and the annotations of a fresh pod. */
export function hotUpgradeContainers(sidecar: SidecarContainer, built: Container): { containers: Container[]; annotations: Record<string, string> } {
  const [one, two] = hotUpgradeNames(sidecar.name);
  return {
    containers: [copy(built, one, built.image), copy(built, two, sidecar.upgradeStrategy?.hotUpgradeEmptyImage)],
    annotations: {
      [SidecarSetVersionAnnotationPrefix + one]: '1', [SidecarSetVersionAltAnnotationPrefix + one]: '0',
      [SidecarSetVersionAnnotationPrefix + two]: '0', [SidecarSetVersionAltAnnotationPrefix + two]: '1',
    },
  };
}

export function workingHotUpgradeContainers(pod: Pod): Record<string, string> {
  try {
    return JSON.parse(pod.metadata.annotations?.[SidecarSetWorkingHotUpgradeContainerAnnotation] ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
