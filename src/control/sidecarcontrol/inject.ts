/**
 * Injection of the chosen SidecarSet versions into a new pod (docs/design/sidecarset.md §2.3-§2.6),
 * a pure function so the webhook, the benchmark and unit tests share it. SidecarSets are taken in
 * name order; native-sidecar and plain init containers go after the pod's own (sorted by name),
 * BeforeAppContainer sidecars before the app containers, AfterAppContainer ones after them; a
 * container of the same name already in the pod is replaced where it stands.
 */
import type { SidecarSet } from './match.js';
import type { Container, LocalObjectReference, Pod, Volume } from '../../api/core/index.js';
import {
  SidecarSetHashAnnotation, SidecarSetHashWithoutImageAnnotation, SidecarSetInjectedListAnnotation,
  SidecarSetWorkingHotUpgradeContainerAnnotation, type SidecarContainer,
} from '../../api/kruise/ops/sidecarset.js';
import { buildSidecarContainer } from './container-build.js';
import { hotUpgradeContainers, isHotUpgrade, workingHotUpgradeContainers } from './hot-upgrade.js';
import { applyPatchPodMetadata } from './patch-metadata.js';
import {
  formatInjectedList, formatUpgradeSpecs, injectedSidecarSets, readUpgradeSpecs, rfc3339,
} from './upgrade-spec.js';

export interface InjectionChoice {
  /** The SidecarSet version to inject (the current object, or one restored from a revision). */
  set: SidecarSet;
  hash: string;
  hashWithoutImage: string;
  /** ControllerRevision name recorded in the pod's hash entry. */
  revision?: string;
}

interface Placed { container: Container; policy: SidecarContainer['podInjectPolicy'] }

function mergeContainers(pod: Container[], injected: Placed[]): Container[] {
  const index = new Map(pod.map((c, i) => [c.name, i]));
  const out = [...pod];
  const before: Container[] = [];
  const after: Container[] = [];
  for (const { container, policy } of injected) {
    const at = index.get(container.name);
    if (at !== undefined) out[at] = container;
    else (policy === 'AfterAppContainer' ? after : before).push(container);
  }
  return [...before, ...out, ...after];
}

function mergeInitContainers(pod: Container[], injected: Container[]): Container[] {
  const out = [...pod];
  for (const c of [...injected].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const at = out.findIndex((x) => x.name === c.name);
    if (at >= 0) out[at] = c;
    else out.push(c);
  }
  return out;
}

/** Injects every choice into `pod`; returns false when there was nothing to inject. */
export function injectSidecars(pod: Pod, choices: InjectionChoice[], options: { now: number; sortByName?: boolean }): boolean {
  const ordered = [...choices].sort((a, b) => (a.set.metadata.name! < b.set.metadata.name! ? -1 : 1));
  if (ordered.every((c) => !c.set.spec?.containers?.length && !c.set.spec?.initContainers?.length)) return false;
  for (const c of ordered) applyPatchPodMetadata(pod, c.set.spec?.patchPodMetadata);
  const hashes = readUpgradeSpecs(pod, SidecarSetHashAnnotation);
  const hashesWithoutImage = readUpgradeSpecs(pod, SidecarSetHashWithoutImageAnnotation);
  const annotations: Record<string, string> = {};
  const working = workingHotUpgradeContainers(pod);
  const containers: Placed[] = [];
  const inits: Container[] = [];
  const volumes: Volume[] = [];
  const secrets: LocalObjectReference[] = [];
  const timestamp = rfc3339(options.now);
  for (const { set, hash, hashWithoutImage, revision } of ordered) {
    const spec = set.spec ?? {};
    const setVolumes = new Map((spec.volumes ?? []).map((v) => [String(v.name), v as unknown as Volume]));
    const useVolumes = (c: SidecarContainer) => {
      for (const name of [...(c.volumeMounts as { name: string }[] | undefined ?? []), ...(c.volumeDevices as { name: string }[] | undefined ?? [])].map((m) => m.name)) {
        const v = setVolumes.get(name);
        if (v) volumes.push(structuredClone(v));
      }
    };
    const sidecarList: string[] = [];
    for (const sidecar of spec.initContainers ?? []) {
      useVolumes(sidecar);
      inits.push(buildSidecarContainer(sidecar, pod));
      if (sidecar.restartPolicy === 'Always') sidecarList.push(sidecar.name);
    }
    for (const sidecar of spec.containers ?? []) {
      useVolumes(sidecar);
      sidecarList.push(sidecar.name);
      const built = buildSidecarContainer(sidecar, pod);
      if (!isHotUpgrade(sidecar)) {
        containers.push({ container: built, policy: sidecar.podInjectPolicy });
        continue;
      }
      const hot = hotUpgradeContainers(sidecar, built);
      for (const c of hot.containers) containers.push({ container: c, policy: sidecar.podInjectPolicy });
      Object.assign(annotations, hot.annotations);
      working[sidecar.name] = hot.containers[0]!.name;
    }
    secrets.push(...spec.imagePullSecrets ?? []);
    const entry = { updateTimestamp: timestamp, sidecarSetName: set.metadata.name!, sidecarList: [...new Set(sidecarList)].sort() };
    hashes[set.metadata.name!] = { ...entry, hash, ...(revision ? { controllerRevision: revision } : {}) };
    hashesWithoutImage[set.metadata.name!] = { ...entry, hash: hashWithoutImage };
  }
  if (options.sortByName) containers.sort((a, b) => (a.container.name < b.container.name ? -1 : 1));
  pod.spec.initContainers = inits.length > 0 ? mergeInitContainers(pod.spec.initContainers ?? [], inits) : pod.spec.initContainers;
  pod.spec.containers = mergeContainers(pod.spec.containers, containers);
  const podVolumes = pod.spec.volumes ?? [];
  for (const v of volumes) if (!podVolumes.some((x) => x.name === v.name)) podVolumes.push(v);
  if (podVolumes.length > 0) pod.spec.volumes = podVolumes;
  const podSecrets = pod.spec.imagePullSecrets ?? [];
  for (const s of secrets) if (!podSecrets.some((x) => x.name === s.name)) podSecrets.push(s);
  if (podSecrets.length > 0) pod.spec.imagePullSecrets = podSecrets;
  pod.metadata.annotations = {
    ...pod.metadata.annotations, ...annotations,
    [SidecarSetHashAnnotation]: formatUpgradeSpecs(hashes),
    [SidecarSetHashWithoutImageAnnotation]: formatUpgradeSpecs(hashesWithoutImage),
    [SidecarSetInjectedListAnnotation]: formatInjectedList([...injectedSidecarSets(pod), ...ordered.map((c) => c.set.metadata.name!)]),
    ...(Object.keys(working).length > 0 ? { [SidecarSetWorkingHotUpgradeContainerAnnotation]: JSON.stringify(working) } : {}),
  };
  return true;
}
