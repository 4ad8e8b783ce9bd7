/**
 * SetDefaults_PodSpec and SetDefaults_Volume: the defaults every pod spec gets, including the pod
 * templates inside workloads. Pod-only defaults (requests from limits, enableServiceLinks, admission
 * plugins) live in pod-defaults.ts.
 */
import { defaultContainer, defaultEnvSource } from './container-defaults.js';
import { canonicalizeField, canonicalizeResourceList } from './quantities.js';
import { child, ensure, isObject, items, setDefault, setDefaultString, str, type Json } from '../json.js';

const defaultMode = 420; // 0644

export function defaultPodSpec(spec: Json): void {
  setDefaultString(spec, 'dnsPolicy', 'ClusterFirst');
  setDefaultString(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'securityContext', {});
  setDefaultString(spec, 'schedulerName', 'default-scheduler');
  for (const list of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of items(spec, list)) defaultContainer(c);
  }
  for (const v of items(spec, 'volumes')) defaultVolume(v);
  mirrorServiceAccount(spec);
  canonicalizeResourceList(child(spec, 'overhead'));
}

/** Defaults the spec of a PodTemplateSpec (`template`) when the template is present. */
export function defaultPodTemplate(template: unknown): void {
  if (isObject(template)) defaultPodSpec(ensure(template, 'spec'));
}

/** With `hostNetwork`, a port's hostPort defaults to its containerPort (pods always; templates behind a gate). */
export function defaultHostNetworkPorts(spec: Json): void {
  if (spec.hostNetwork !== true) return;
  for (const c of [...items(spec, 'initContainers'), ...items(spec, 'containers')]) {
    for (const port of items(c, 'ports')) if (!port.hostPort) port.hostPort = port.containerPort;
  }
}

/** v1's deprecated `serviceAccount` always mirrors `serviceAccountName` (conversion does it upstream). */
export function mirrorServiceAccount(spec: Json): void {
  const name = str(spec, 'serviceAccountName') || str(spec, 'serviceAccount');
  if (!name) return;
  // assigned only when different: a /status write's spec is the stored object's own
  if (spec.serviceAccountName !== name) spec.serviceAccountName = name;
  if (spec.serviceAccount !== name) spec.serviceAccount = name;
}

const volumeSources = (v: Json): string[] => Object.keys(v).filter((k) => k !== 'name' && v[k] !== undefined && v[k] !== null);

export function defaultVolume(v: Json): void {
  if (volumeSources(v).length === 0) v.emptyDir = {};
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = child(v, source);
    if (s) setDefault(s, 'defaultMode', defaultMode);
  }
  for (const item of items(child(v, 'downwardAPI'), 'items')) defaultEnvSource(item);
  for (const projection of items(child(v, 'projected'), 'sources')) {
    const token = child(projection, 'serviceAccountToken');
    if (token) setDefault(token, 'expirationSeconds', 3600);
    for (const item of items(child(projection, 'downwardAPI'), 'items')) defaultEnvSource(item);
  }
  const hostPath = child(v, 'hostPath');
  if (hostPath) setDefault(hostPath, 'type', '');
  canonicalizeField(child(v, 'emptyDir'), 'sizeLimit');
  const claimTemplate = child(child(v, 'ephemeral'), 'volumeClaimTemplate');
  const claimSpec = child(claimTemplate, 'spec');
  if (claimSpec) defaultClaimSpec(claimSpec);
}

/** PersistentVolumeClaimSpec defaults (also used by PVCs and StatefulSet claim templates). */
export function defaultClaimSpec(spec: Json): void {
  setDefaultString(spec, 'volumeMode', 'Filesystem');
  const resources = child(spec, 'resources');
  canonicalizeResourceList(child(resources, 'requests'));
  canonicalizeResourceList(child(resources, 'limits'));
}
