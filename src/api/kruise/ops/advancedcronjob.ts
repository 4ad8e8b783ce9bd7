/**
 * AdvancedCronJob (apps.kruise.io, `acj`): a cron schedule that creates Jobs, BroadcastJobs or
 * (v1beta1 only) ImageListPullJobs. v1beta1 is stored; converting one with an
 * imageListPullJobTemplate to v1alpha1 fails.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { BroadcastJobSpec } from './broadcastjob.js';
import { ObjectReference } from './core-types.js';
import { ImageListPullJobSpec } from './imagelistpulljob.js';
import { AgeColumn, Bool, Int32, Int64, Opt, Schemaless, Str, StrEnum, TemplateMeta, Time, kindObject } from './schema.js';

/** Child annotation: the nominal schedule time (RFC 3339). */
export const ScheduledAtAnnotation = 'apps.kruise.io/scheduled-at';

export const ConcurrencyPolicies = ['Allow', 'Forbid', 'Replace'] as const;
export type ConcurrencyPolicy = typeof ConcurrencyPolicies[number];
export type TemplateKind = 'Job' | 'BroadcastJob' | 'ImageListPullJob';

const BroadcastJobTemplate = Type.Object({ metadata: Opt(TemplateMeta), spec: Opt(BroadcastJobSpec) });
const ImageListPullJobTemplate = Type.Object({ metadata: Opt(TemplateMeta), spec: Opt(ImageListPullJobSpec) });

const templateV1alpha1 = {
  broadcastJobTemplate: Opt(BroadcastJobTemplate),
  /** batch/v1 JobTemplateSpec, validated when the Job is created. */
  jobTemplate: Opt(Schemaless<Record<string, unknown>>()),
};
const templateV1beta1 = { ...templateV1alpha1, imageListPullJobTemplate: Opt(ImageListPullJobTemplate) };

const specProps = {
  concurrencyPolicy: Opt(StrEnum(ConcurrencyPolicies)),
  failedJobsHistoryLimit: Opt(Int32()),
  paused: Opt(Bool()),
  schedule: Str({ minLength: 0 }),
  startingDeadlineSeconds: Opt(Int64()),
  successfulJobsHistoryLimit: Opt(Int32()),
  timeZone: Opt(Str()),
};

export const AdvancedCronJobStatus = Type.Object({
  active: Opt(Type.Array(ObjectReference)),
  lastScheduleTime: Opt(Time()),
  type: Opt(Type.Unsafe<TemplateKind>(Str())),
});

export const AdvancedCronJobSchemaV1alpha1 = kindObject(
  Type.Object({ ...specProps, template: Type.Object(templateV1alpha1) }),
  AdvancedCronJobStatus,
);
export const AdvancedCronJobSchemaV1beta1 = kindObject(
  Type.Object({ ...specProps, template: Type.Object(templateV1beta1) }),
  AdvancedCronJobStatus,
);
export type AdvancedCronJobV1alpha1 = Static<typeof AdvancedCronJobSchemaV1alpha1>;
/** The hub version. */
export type AdvancedCronJob = Static<typeof AdvancedCronJobSchemaV1beta1>;

const columns: PrinterColumn[] = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule', description: 'The schedule of advanced cron job.' },
  { name: 'Type', type: 'string', jsonPath: '.status.type', description: 'Type of cron job.' },
  { name: 'LastScheduleTime', type: 'date', jsonPath: '.status.lastScheduleTime', description: 'The last time at which job was scheduled.' },
  AgeColumn,
];

export const advancedCronJobKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'AdvancedCronJob',
  plural: 'advancedcronjobs',
  singular: 'advancedcronjob',
  shortNames: ['acj'],
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: AdvancedCronJobSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: AdvancedCronJobSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
