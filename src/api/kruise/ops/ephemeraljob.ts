/**
 * EphemeralJob (apps.kruise.io, `ejob`, v1alpha1 only in the specs): injects ephemeral
 * containers into matching pods through `pods/ephemeralcontainers`. The container list is
 * schemaless, as upstream.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { JobCondition, LabelSelector } from './core-types.js';
import { AgeColumn, Bool, Int32, Int64, Opt, Schemaless, Str, Time, kindObject } from './schema.js';

/** Env var set on every injected ephemeral container (value: the job's UID). */
export const EphemeralContainerEnvKey = 'KRUISE_EJOB_ID';

export type EphemeralJobPhase = 'Succeeded' | 'Failed' | 'Waiting' | 'Running' | 'Paused' | 'Error' | 'Unknown';

export const EphemeralJobSpec = Type.Object({
  activeDeadlineSeconds: Opt(Int64()),
  parallelism: Opt(Int32()),
  paused: Opt(Bool()),
  replicas: Opt(Int32()),
  selector: LabelSelector,
  template: Type.Object({
    /** corev1.EphemeralContainer list. */
    ephemeralContainers: Schemaless<Record<string, unknown>[]>(),
  }),
  ttlSecondsAfterFinished: Opt(Int32()),
});

export const EphemeralJobStatus = Type.Object({
  completionTime: Opt(Time()),
  conditions: Opt(Type.Array(JobCondition)),
  failed: Opt(Int32()),
  match: Opt(Int32()),
  phase: Opt(Type.Unsafe<EphemeralJobPhase | ''>(Str())),
  running: Opt(Int32()),
  startTime: Opt(Time()),
  succeeded: Opt(Int32()),
  waiting: Opt(Int32()),
});

export const EphemeralJobSchema = kindObject(EphemeralJobSpec, EphemeralJobStatus);
export type EphemeralJob = Static<typeof EphemeralJobSchema>;

const columns: PrinterColumn[] = [
  { name: 'STATUS', type: 'string', jsonPath: '.status.phase', description: 'The status of ephemeral job' },
  { name: 'MATCH', type: 'integer', jsonPath: '.status.match', description: 'Number of ephemeral container matched by this job' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of succeed ephemeral containers' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of failed ephemeral containers' },
  { name: 'RUNNING', type: 'integer', jsonPath: '.status.running', description: 'Number of running ephemeral containers' },
  { name: 'WAITING', type: 'integer', jsonPath: '.status.waiting', description: 'Number of waiting ephemeral containers' },
  AgeColumn,
];

export const ephemeralJobKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'EphemeralJob',
  plural: 'ephemeraljobs',
  singular: 'ephemeraljob',
  shortNames: ['ejob'],
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: true, schema: EphemeralJobSchema, printerColumns: columns, subresources: { status: true } },
  ],
});
