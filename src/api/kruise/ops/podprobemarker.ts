/**
 * PodProbeMarker (apps.kruise.io, v1alpha1 only): custom probes run by kruise-daemon whose
 * results become pod conditions, labels and annotations.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { ObjectMeta } from '../../meta.js';
import { defineKind } from '../define-kind.js';
import { LabelSelector, Probe } from './core-types.js';
import { Int64, Opt, Str, StringMap, kindObject } from './schema.js';

/** Finalizer held until the marker's probes are removed from every NodePodProbe. */
export const NodePodProbeCleanupFinalizer = 'kruise.io/node-pod-probe-cleanup';
/** Serverless pods: JSON list of the probes to run, and the sorted names of the markers that matched. */
export const PodProbeAnnotation = 'kruise.io/podprobe';
export const PodProbeMarkerListAnnotation = 'kruise.io/podprobemarker-list';
/** Node label of serverless (virtual-kubelet) nodes, whose pods use the annotation protocol. */
export const VirtualKubeletNodeLabel = 'type';
export const VirtualKubeletNodeLabelValue = 'virtual-kubelet';

export type ProbeState = 'Succeeded' | 'Failed' | 'Unknown';

export const ProbeMarkerPolicy = Type.Object({
  annotations: Opt(StringMap()),
  labels: Opt(StringMap()),
  state: Type.Unsafe<'Succeeded' | 'Failed'>(Str()),
});

export const PodContainerProbe = Type.Object({
  containerName: Str(),
  markerPolicy: Opt(Type.Array(ProbeMarkerPolicy)),
  name: Str(),
  podConditionType: Opt(Str()),
  probe: Probe,
});

export const PodProbeMarkerSpec = Type.Object({
  probes: Type.Array(PodContainerProbe),
  selector: LabelSelector,
});

export const PodProbeMarkerStatus = Type.Object({
  matchedPods: Opt(Int64()),
  observedGeneration: Int64(),
});

export const PodProbeMarkerSchema = kindObject(PodProbeMarkerSpec, PodProbeMarkerStatus);
/** As stored and served: metadata always present. */
export type PodProbeMarker = Static<typeof PodProbeMarkerSchema> & { metadata: ObjectMeta };

export const podProbeMarkerKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'PodProbeMarker',
  plural: 'podprobemarkers',
  singular: 'podprobemarker',
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: true, schema: PodProbeMarkerSchema, subresources: { status: true } },
  ],
});
