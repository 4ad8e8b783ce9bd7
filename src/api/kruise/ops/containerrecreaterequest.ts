/**
 * ContainerRecreateRequest (apps.kruise.io, `crr`): asks the node's kruise-daemon to restart
 * some containers of a pod. v1beta1 is stored and adds `status.containerStatusSnapshot` and
 * `status.conditions`, which v1alpha1 keeps in two annotations.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { ContainerPort, MetaCondition, ProbeHandler } from './core-types.js';
import { AgeColumn, Bool, Int32, Int64, Opt, Str, Time, kindObject } from './schema.js';

/** [Immutable] labels: target pod UID and node. */
export const CRRPodUidLabel = 'crr.apps.kruise.io/pod-uid';
export const CRRNodeNameLabel = 'crr.apps.kruise.io/node-name';
/** [Immutable] label: target pod name (the daemon groups a pod's requests by it). */
export const CRRPodNameLabel = 'crr.apps.kruise.io/pod-name';
/** Label `"true"` while the CRR is not completed; the daemon watches only active CRRs. */
export const CRRActiveLabel = 'crr.apps.kruise.io/active';
/** v1alpha1 annotation holding status.containerStatusSnapshot as a JSON list. */
export const CRRSyncContainerStatusesAnnotation = 'crr.apps.kruise.io/sync-container-statuses';
/** Finalizer (v1beta1) and v1alpha1 annotation (RFC 3339 time): the pod was forced not-ready. */
export const CRRUnreadyAcquiredKey = 'crr.apps.kruise.io/unready-acquired';
/** status.conditions type marking the start of the unready drain. */
export const CRRPreRecreateGraceCondition = 'PreRecreateGrace';
/** Pod condition and readiness gate Kruise uses to force pods not-ready. */
export const KruisePodReadyCondition = 'KruisePodReady';

export type CRRPhase = 'Pending' | 'Recreating' | 'Succeeded' | 'Failed' | 'Completed';

export const ContainerRecreateRequestSpec = Type.Object({
  activeDeadlineSeconds: Opt(Int64()),
  containers: Type.Array(Type.Object({
    name: Str(),
    ports: Opt(Type.Array(ContainerPort)),
    preStop: Opt(ProbeHandler),
    statusContext: Opt(Type.Object({ containerID: Str(), restartCount: Int32() })),
  })),
  podName: Str(),
  strategy: Opt(Type.Object({
    failurePolicy: Opt(Type.Unsafe<'Fail' | 'Ignore'>(Str())),
    forceRecreate: Opt(Bool()),
    minStartedSeconds: Opt(Int32()),
    orderedRecreate: Opt(Bool()),
    terminationGracePeriodSeconds: Opt(Int64()),
    unreadyGracePeriodSeconds: Opt(Int64()),
  })),
  ttlSecondsAfterFinished: Opt(Int32()),
});
export type ContainerRecreateRequestSpec = Static<typeof ContainerRecreateRequestSpec>;

const statusProps = {
  completionTime: Opt(Time()),
  containerRecreateStates: Opt(Type.Array(Type.Object({
    isKilled: Opt(Bool()),
    message: Opt(Str()),
    name: Str(),
    phase: Type.Unsafe<CRRPhase>(Str()),
  }))),
  message: Opt(Str()),
  phase: Type.Unsafe<CRRPhase | ''>(Str()),
};

/** One container's state as the controller last saw it (v1alpha1: the sync annotation's entries). */
export const ContainerStatusSnapshot = Type.Object({
  containerID: Opt(Str()),
  name: Str(),
  ready: Bool(),
  restartCount: Int32(),
});

export const ContainerRecreateRequestSchemaV1alpha1 = kindObject(ContainerRecreateRequestSpec, Type.Object(statusProps));
export const ContainerRecreateRequestSchemaV1beta1 = kindObject(ContainerRecreateRequestSpec, Type.Object({
  ...statusProps,
  conditions: Opt(Type.Array(MetaCondition)),
  containerStatusSnapshot: Opt(Type.Array(ContainerStatusSnapshot)),
}));
export type ContainerRecreateRequestV1alpha1 = Static<typeof ContainerRecreateRequestSchemaV1alpha1>;
/** The hub version. */
export type ContainerRecreateRequest = Static<typeof ContainerRecreateRequestSchemaV1beta1>;

const columns: PrinterColumn[] = [
  { name: 'PHASE', type: 'string', jsonPath: '.status.phase', description: 'Phase of this ContainerRecreateRequest.' },
  { name: 'POD', type: 'string', jsonPath: '.spec.podName', description: 'Pod name of this ContainerRecreateRequest.' },
  { name: 'NODE', type: 'string', jsonPath: '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name', description: 'Pod name of this ContainerRecreateRequest.' },
  AgeColumn,
];

export const containerRecreateRequestKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'ContainerRecreateRequest',
  plural: 'containerrecreaterequests',
  singular: 'containerrecreaterequest',
  shortNames: ['crr'],
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: ContainerRecreateRequestSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: ContainerRecreateRequestSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
