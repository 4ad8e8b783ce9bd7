/**
 * Stable pod identity: `<set>-<ordinal>` names, the ordinal parsed back from a name, the identity
 * labels, hostname and subdomain, and the per-ordinal claims `<template>-<set>-<ordinal>` mounted
 * in place of the template volumes of the same name.
 */
import { newControllerRef } from '../../../control/ownership/index.js';
import { podFromTemplate } from '../../../control/podcontrol/pod-template.js';
import { podIndexLabel, podNameLabel, revisionLabel, type ClaimTemplate } from './types.js';
import { templateOfRevision } from '../../../control/revision/index.js';
import type { Pod, PodTemplateSpec, ControllerRevision, StatefulSet } from '../../../api/core/index.js';

export function podName(set: StatefulSet, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

/** The ordinal of a pod named `<set>-<n>`, or undefined for any other name. */
export function ordinalOf(set: StatefulSet, pod: Pod): number | undefined {
  const prefix = `${set.metadata.name}-`;
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}

export function claimName(claim: ClaimTemplate, set: StatefulSet, ordinal: number): string {
  return `${claim.metadata?.name}-${set.metadata.name}-${ordinal}`;
}

/** The pod for `ordinal`, from the template `revision` recorded, labelled with that revision. */
export function newStatefulSetPod(set: StatefulSet, revision: ControllerRevision, ordinal: number): Pod {
  const template: PodTemplateSpec = templateOfRevision(revision) ?? {};
  const name = podName(set, ordinal);
  const pod = podFromTemplate({
    namespace: set.metadata.namespace!, template, name, ownerRef: newControllerRef(set, 'apps/v1', 'StatefulSet'),
  });
  pod.metadata.labels = {
    ...pod.metadata.labels, [podNameLabel]: name, [podIndexLabel]: String(ordinal), [revisionLabel]: revision.metadata.name!,
  };
  const spec = pod.spec ?? {};
  spec.hostname = name;
  if (set.spec?.serviceName) spec.subdomain = set.spec.serviceName;
  const claims = set.spec?.volumeClaimTemplates ?? [];
  if (claims.length > 0) {
    const names = new Set(claims.map((c) => c.metadata?.name));
    const volumes = (spec.volumes ?? []).filter((v) => !names.has(v.name));
    spec.volumes = [...claims.map((c) => ({ name: c.metadata!.name!, persistentVolumeClaim: { claimName: claimName(c, set, ordinal) } })), ...volumes];
  }
  pod.spec = spec;
  return pod;
}

/** The revision name a pod was made from. */
export function podRevision(pod: Pod): string | undefined {
  return pod.metadata.labels?.[revisionLabel];
}
