/**
 * One sidecar container as it goes into a pod (docs/design/sidecarset.md §2.4): Kruise's extra
 * fields dropped; the volume mounts of the app containers when shareVolumePolicy is enabled (on a
 * mount path the sidecar does not use itself, with the env vars their subPathExpr references);
 * env = own + `IS_INJECTED=true` + transferred vars the sidecar does not define. The controller
 * recomputes the same on every in-place upgrade.
 */
import type { Container, EnvVar, Pod, VolumeDevice, VolumeMount } from '../../api/core/index.js';
import { SidecarInjectedEnv, type SidecarContainer } from '../../api/kruise/ops/sidecarset.js';

const kruiseFields = ['podInjectPolicy', 'upgradeStrategy', 'shareVolumePolicy', 'shareVolumeDevicePolicy', 'transferEnv', 'resourcesPolicy'];

/** The core Container of a SidecarContainer. */
export function coreContainer(sidecar: SidecarContainer): Container {
  const out: Record<string, unknown> = structuredClone(sidecar);
  for (const f of kruiseFields) delete out[f];
  return out as unknown as Container;
}

export const isInjectedContainer = (c: Container): boolean =>
  (c.env ?? []).some((e) => e.name === SidecarInjectedEnv && e.value === 'true');

const enabled = (policy: { type?: string } | undefined): boolean => policy?.type === 'enabled';

/** `$(VAR)` names used in subPathExpr of `mount`. */
function subPathVars(mount: VolumeMount): string[] {
  return [...(mount.subPathExpr ?? '').matchAll(/\$\(([^)]+)\)/g)].map((m) => m[1]!);
}

/** Shared mounts (and the env vars they need) from the pod's app containers. */
export function sharedVolumeMounts(sidecar: SidecarContainer, pod: Pod): { mounts: VolumeMount[]; envs: EnvVar[]; devices: VolumeDevice[] } {
  const used = new Set([...(sidecar.volumeMounts as VolumeMount[] | undefined ?? []).map((m) => m.mountPath),
    ...(sidecar.volumeDevices as VolumeDevice[] | undefined ?? []).map((d) => d.devicePath)]);
  const mounts: VolumeMount[] = [];
  const envs: EnvVar[] = [];
  const devices: VolumeDevice[] = [];
  const shareMounts = enabled(sidecar.shareVolumePolicy);
  const shareDevices = enabled(sidecar.shareVolumeDevicePolicy);
  if (!shareMounts && !shareDevices) return { mounts, envs, devices };
  for (const app of pod.spec.containers) {
    if (isInjectedContainer(app)) continue;
    for (const m of shareMounts ? app.volumeMounts ?? [] : []) {
      if (used.has(m.mountPath)) continue;
      used.add(m.mountPath);
      mounts.push(m);
      for (const name of subPathVars(m)) {
        const env = app.env?.find((e) => e.name === name);
        if (env && !envs.some((e) => e.name === name)) envs.push(env);
      }
    }
    for (const d of shareDevices ? app.volumeDevices ?? [] : []) {
      if (used.has(d.devicePath)) continue;
      used.add(d.devicePath);
      devices.push(d);
    }
  }
  return { mounts, envs, devices };
}

/** The container name a transferEnv entry reads from ('' when it cannot tell). */
function transferSource(entry: NonNullable<SidecarContainer['transferEnv']>[number], pod: Pod): string {
  if (entry.sourceContainerName) return entry.sourceContainerName;
  const path = entry.sourceContainerNameFrom?.fieldRef?.fieldPath ?? '';
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (!m) return '';
  return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2]!] ?? '';
}

/** Env vars copied from app containers; a missing source or var is skipped. */
export function transferredEnvs(sidecar: SidecarContainer, pod: Pod): EnvVar[] {
  const out: EnvVar[] = [];
  for (const entry of sidecar.transferEnv ?? []) {
    const source = pod.spec.containers.find((c) => c.name === transferSource(entry, pod));
    if (!source) continue;
    const names = [...(entry.envName ? [entry.envName] : []), ...(entry.envNames ?? [])];
    for (const name of names) {
      const env = source.env?.find((e) => e.name === name);
      if (env && !out.some((e) => e.name === name)) out.push(structuredClone(env));
    }
  }
  return out;
}

function appendMissing<T>(own: T[] | undefined, extra: T[], key: (t: T) => string): T[] | undefined {
  const have = new Set((own ?? []).map(key));
  const added = extra.filter((t) => !have.has(key(t)));
  return added.length === 0 && !own ? own : [...own ?? [], ...added];
}

/** The container injected into (or re-applied to) `pod` for `sidecar`. */
export function buildSidecarContainer(sidecar: SidecarContainer, pod: Pod): Container {
  const container = coreContainer(sidecar);
  const shared = sharedVolumeMounts(sidecar, pod);
  container.volumeMounts = appendMissing(container.volumeMounts, shared.mounts, (m) => m.mountPath);
  container.volumeDevices = appendMissing(container.volumeDevices, shared.devices, (d) => d.devicePath);
  const env = [...container.env ?? []];
  if (!env.some((e) => e.name === SidecarInjectedEnv)) env.push({ name: SidecarInjectedEnv, value: 'true' });
  container.env = appendMissing(env, [...transferredEnvs(sidecar, pod), ...shared.envs], (e) => e.name);
  return container;
}
