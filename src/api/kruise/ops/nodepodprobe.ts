/**
 * NodePodProbe (apps.kruise.io, v1alpha1 only, cluster-scoped, one per node named after it): the
 * probes the node's kruise-daemon runs and their results. Note the uppercase `IP` key.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { ObjectMeta } from '../../meta.js';
import { defineKind } from '../define-kind.js';
import { Probe } from './core-types.js';
import { type ProbeState } from './podprobemarker.js';
import { Opt, Str, Time, kindObject } from './schema.js';

/** Probe names in a NodePodProbe are `<PodProbeMarker name>#<probe name>`. */
export const NodePodProbeNameSeparator = '#';

export const NodePodProbeSpec = Type.Object({
  podProbes: Opt(Type.Array(Type.Object({
    IP: Str(),
    name: Str(),
    namespace: Str(),
    probes: Opt(Type.Array(Type.Object({
      containerName: Str(),
      name: Str(),
      podProbeMarkerName: Opt(Str()),
      probe: Probe,
    }))),
    uid: Str(),
  }))),
});

export const ContainerProbeState = Type.Object({
  lastProbeTime: Opt(Time()),
  lastTransitionTime: Opt(Time()),
  message: Opt(Str()),
  name: Str(),
  state: Type.Unsafe<ProbeState | ''>(Str()),
});

export const NodePodProbeStatus = Type.Object({
  podProbeStatuses: Opt(Type.Array(Type.Object({
    name: Str(),
    namespace: Str(),
    probeStates: Opt(Type.Array(ContainerProbeState)),
    uid: Str(),
  }))),
});

export const NodePodProbeSchema = kindObject(NodePodProbeSpec, NodePodProbeStatus);
/** As stored and served: metadata always present. */
export type NodePodProbe = Static<typeof NodePodProbeSchema> & { metadata: ObjectMeta };

export const nodePodProbeKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'NodePodProbe',
  plural: 'nodepodprobes',
  singular: 'nodepodprobe',
  scope: 'Cluster',
  versions: [
    { name: 'v1alpha1', served: true, storage: true, schema: NodePodProbeSchema, subresources: { status: true } },
  ],
});
