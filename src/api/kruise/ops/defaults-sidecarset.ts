/**
 * SidecarSet defaulting webhook values on the hub version. Core Container and Volume defaults
 * (terminationMessagePath, imagePullPolicy by tag, probe timings, volume modes...) are the core
 * pod defaulter's job and come in as hooks, so the api layer stays free of it.
 */
import type { SidecarContainer, SidecarSet, SidecarSetSpec } from './sidecarset.js';

export const DefaultSidecarSetRevisionHistoryLimit = 10;

export interface SidecarSetDefaultHooks {
  /** Core corev1.Container defaulting, applied to every container and init container in place. */
  container?: (c: Record<string, unknown>) => void;
  /** Core corev1.Volume defaulting, applied to every volume in place. */
  volume?: (v: Record<string, unknown>) => void;
}

type Json = Record<string, unknown>;

function isJson(x: unknown): x is Json {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** ObjectFieldSelector.apiVersion defaults to v1. */
function defaultFieldRef(ref: unknown): void {
  if (isJson(ref) && !ref.apiVersion) ref.apiVersion = 'v1';
}

function defaultSidecarContainer(c: SidecarContainer, injectPolicy: 'BeforeAppContainer' | 'AfterAppContainer', hooks: SidecarSetDefaultHooks): void {
  c.podInjectPolicy ||= injectPolicy;
  c.upgradeStrategy = { ...c.upgradeStrategy, upgradeType: c.upgradeStrategy?.upgradeType || 'ColdUpgrade' };
  c.shareVolumePolicy = { ...c.shareVolumePolicy, type: c.shareVolumePolicy?.type || 'disabled' };
  for (const port of Array.isArray(c.ports) ? c.ports : []) {
    if (isJson(port) && !port.protocol) port.protocol = 'TCP';
  }
  for (const env of Array.isArray(c.env) ? c.env : []) {
    if (isJson(env) && isJson(env.valueFrom)) defaultFieldRef(env.valueFrom.fieldRef);
  }
  for (const t of c.transferEnv ?? []) defaultFieldRef(t.sourceContainerNameFrom?.fieldRef);
  hooks.container?.(c);
}

function defaultUpdateStrategy(spec: SidecarSetSpec): void {
  const s = { ...spec.updateStrategy };
  s.type ||= 'RollingUpdate';
  s.maxUnavailable ??= 1;
  s.partition ??= 0;
  spec.updateStrategy = s;
}

/**
 * updateStrategy {RollingUpdate, maxUnavailable 1, partition 0}; containers
 * BeforeAppContainer / init containers AfterAppContainer, ColdUpgrade, shareVolumePolicy
 * disabled, port protocol TCP, fieldRef apiVersion v1; revisionHistoryLimit 10;
 * patchPolicy Retain; injectionStrategy.revision.policy Always. Upstream always serialises
 * `injectionStrategy` (a struct, not a pointer), so it is present afterwards.
 */
export function defaultSidecarSet(obj: SidecarSet, hooks: SidecarSetDefaultHooks = {}): SidecarSet {
  const out = structuredClone(obj);
  const spec = out.spec;
  if (!spec) return out;
  defaultUpdateStrategy(spec);
  for (const c of spec.initContainers ?? []) defaultSidecarContainer(c, 'AfterAppContainer', hooks);
  for (const c of spec.containers ?? []) defaultSidecarContainer(c, 'BeforeAppContainer', hooks);
  const volumes: unknown[] = Array.isArray(spec.volumes) ? spec.volumes : [];
  for (const v of volumes) if (isJson(v)) hooks.volume?.(v);
  spec.revisionHistoryLimit ??= DefaultSidecarSetRevisionHistoryLimit;
  for (const p of spec.patchPodMetadata ?? []) p.patchPolicy ||= 'Retain';
  spec.injectionStrategy = { ...spec.injectionStrategy };
  const revision = spec.injectionStrategy.revision;
  if (revision) revision.policy ||= 'Always';
  return out;
}
