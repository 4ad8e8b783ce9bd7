/**
 * Core Kubernetes types embedded with a full schema in the ops kinds (selectors, object
 * references, probes, ports, conditions), declared as controller-gen renders them in Kruise's CRDs,
 * including the `default:` values those CRDs carry.
 */
import { Type } from '@sinclair/typebox';
import { IntOrString } from '../common.js';
import { Int32, Int64, Opt, Str, StringMap, Time } from './schema.js';

const atomicStrings = () => Type.Array(Type.String(), { 'x-kubernetes-list-type': 'atomic' });

export const LabelSelectorRequirement = Type.Object({
  key: Str(),
  operator: Str(),
  values: Opt(atomicStrings()),
});

const selectorProps = {
  matchExpressions: Opt(Type.Array(LabelSelectorRequirement, { 'x-kubernetes-list-type': 'atomic' })),
  matchLabels: Opt(StringMap()),
};

/** metav1.LabelSelector (matchLabels as `additionalProperties`, unlike common.ts). */
export const LabelSelector = Type.Object(selectorProps, { 'x-kubernetes-map-type': 'atomic' });

/** A LabelSelector inlined next to other fields (ImagePullJob's node selector). */
export const inlineSelectorProps = selectorProps;

/** corev1.ObjectReference. */
export const ObjectReference = Type.Object({
  apiVersion: Opt(Str()),
  fieldPath: Opt(Str()),
  kind: Opt(Str()),
  name: Opt(Str()),
  namespace: Opt(Str()),
  resourceVersion: Opt(Str()),
  uid: Opt(Str()),
}, { 'x-kubernetes-map-type': 'atomic' });

/** corev1.LocalObjectReference; controller-gen emits `default: ""` for its name. */
export const LocalObjectReference = Type.Object({
  name: Opt(Type.String({ default: '' })),
}, { 'x-kubernetes-map-type': 'atomic' });

export const ContainerPort = Type.Object({
  containerPort: Int32(),
  hostIP: Opt(Str()),
  hostPort: Opt(Int32()),
  name: Opt(Str()),
  protocol: Opt(Type.String({ default: 'TCP' })),
});

export const ExecAction = Type.Object({ command: Opt(atomicStrings()) });

export const HTTPGetAction = Type.Object({
  host: Opt(Str()),
  httpHeaders: Opt(Type.Array(Type.Object({ name: Str(), value: Str() }), { 'x-kubernetes-list-type': 'atomic' })),
  path: Opt(Str()),
  port: IntOrString,
  scheme: Opt(Str()),
});

export const TCPSocketAction = Type.Object({ host: Opt(Str()), port: IntOrString });

export const GRPCAction = Type.Object({ port: Int32(), service: Opt(Type.String({ default: '' })) });

/** ContainerRecreateRequest's preStop: exec, httpGet or tcpSocket. */
export const ProbeHandler = Type.Object({
  exec: Opt(ExecAction),
  httpGet: Opt(HTTPGetAction),
  tcpSocket: Opt(TCPSocketAction),
});

/** corev1.Probe (PodProbeMarker / NodePodProbe probes). */
export const Probe = Type.Object({
  exec: Opt(ExecAction),
  failureThreshold: Opt(Int32()),
  grpc: Opt(GRPCAction),
  httpGet: Opt(HTTPGetAction),
  initialDelaySeconds: Opt(Int32()),
  periodSeconds: Opt(Int32()),
  successThreshold: Opt(Int32()),
  tcpSocket: Opt(TCPSocketAction),
  terminationGracePeriodSeconds: Opt(Int64()),
  timeoutSeconds: Opt(Int32()),
});

/** metav1.Condition, with the requirements its CRD rendering carries. */
export const MetaCondition = Type.Object({
  lastTransitionTime: Time(),
  message: Type.String({ maxLength: 32768 }),
  observedGeneration: Opt(Int64({ minimum: 0 })),
  reason: Type.String({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
  status: Type.Unsafe<'True' | 'False' | 'Unknown'>({ type: 'string', enum: ['True', 'False', 'Unknown'] }),
  type: Type.String({ maxLength: 316, pattern: '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$' }),
});

/** Job-style condition (BroadcastJob, EphemeralJob). */
export const JobCondition = Type.Object({
  lastProbeTime: Opt(Time()),
  lastTransitionTime: Opt(Time()),
  message: Opt(Str()),
  reason: Opt(Str()),
  status: Str(),
  type: Str(),
});
