/**
 * BroadcastJob (apps.kruise.io, `bcj`): runs one pod of a template on every eligible node.
 * v1alpha1 and v1beta1 share one schema (conversion only rewrites apiVersion); v1beta1 is stored.
 */
import { Type, type Static } from '@sinclair/typebox';
import { IntOrString, PodTemplateSpec } from '../common.js';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { JobCondition } from './core-types.js';
import { AgeColumn, Bool, Int32, Int64, Opt, Str, Time, kindObject } from './schema.js';

/** Pod labels written by the controller; users may not preset them in the template. */
export const BroadcastJobNameLabel = 'broadcastjob-name';
export const BroadcastJobControllerUidLabel = 'broadcastjob-controller-uid';

/** Shared by BroadcastJob and ImagePullJob: Always (finish) or Never (keep covering new nodes). */
export const CompletionPolicy = Type.Object({
  activeDeadlineSeconds: Opt(Int64()),
  ttlSecondsAfterFinished: Opt(Int32()),
  type: Opt(Type.Unsafe<'Always' | 'Never'>(Str())),
});
export type CompletionPolicy = Static<typeof CompletionPolicy>;

export const FailurePolicy = Type.Object({
  restartLimit: Opt(Int32()),
  type: Opt(Type.Unsafe<'Continue' | 'FailFast' | 'Pause'>(Str())),
});

export const BroadcastJobSpec = Type.Object({
  completionPolicy: Opt(CompletionPolicy),
  failurePolicy: Opt(FailurePolicy),
  parallelism: Opt(IntOrString),
  paused: Opt(Bool()),
  template: PodTemplateSpec,
});
export type BroadcastJobSpec = Static<typeof BroadcastJobSpec>;

export type BroadcastJobPhase = 'running' | 'paused' | 'completed' | 'failed';

export const BroadcastJobStatus = Type.Object({
  active: Opt(Int32()),
  completionTime: Opt(Time()),
  conditions: Opt(Type.Array(JobCondition)),
  desired: Opt(Int32()),
  failed: Opt(Int32()),
  phase: Opt(Type.Unsafe<BroadcastJobPhase | ''>(Str())),
  startTime: Opt(Time()),
  succeeded: Opt(Int32()),
});
export type BroadcastJobStatus = Static<typeof BroadcastJobStatus>;

export const BroadcastJobSchema = kindObject(BroadcastJobSpec, BroadcastJobStatus);
/** Both versions; controllers work on v1beta1. */
export type BroadcastJob = Static<typeof BroadcastJobSchema>;

const columns: PrinterColumn[] = [
  { name: 'Desired', type: 'integer', jsonPath: '.status.desired', description: 'The desired number of pods. This is typically equal to the number of nodes satisfied to run pods.' },
  { name: 'Active', type: 'integer', jsonPath: '.status.active', description: 'The number of actively running pods.' },
  { name: 'Succeeded', type: 'integer', jsonPath: '.status.succeeded', description: 'The number of pods which reached phase Succeeded.' },
  { name: 'Failed', type: 'integer', jsonPath: '.status.failed', description: 'The number of pods which reached phase Failed.' },
  AgeColumn,
];

export const broadcastJobKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'BroadcastJob',
  plural: 'broadcastjobs',
  singular: 'broadcastjob',
  shortNames: ['bcj'],
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: BroadcastJobSchema, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: BroadcastJobSchema, printerColumns: columns, subresources: { status: true } },
  ],
});
