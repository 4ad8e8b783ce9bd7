/**
 * ImageListPullJob (apps.kruise.io): one child ImagePullJob per listed image, all sharing the
 * ImagePullJob template. Both versions share one schema; v1beta1 is stored.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { imagePullJobTemplateProps } from './imagepulljob.js';
import { AgeColumn, Int32, Opt, Str, Time, kindObject } from './schema.js';

/** Template hash label on the ImageListPullJob and its child ImagePullJobs. */
export const ImageListPullJobRevisionHashLabel = 'controller-revision-hash';

export const ImageListPullJobSpec = Type.Object({ images: Type.Array(Str()), ...imagePullJobTemplateProps });
export type ImageListPullJobSpec = Static<typeof ImageListPullJobSpec>;

export const FailedImageStatus = Type.Object({
  imagePullJob: Opt(Str()),
  message: Opt(Str()),
  name: Opt(Str()),
});

export const ImageListPullJobStatus = Type.Object({
  active: Opt(Int32()),
  completed: Opt(Int32()),
  completionTime: Opt(Time()),
  desired: Int32(),
  failedImageStatuses: Opt(Type.Array(FailedImageStatus)),
  startTime: Opt(Time()),
  succeeded: Opt(Int32()),
});

export const ImageListPullJobSchema = kindObject(ImageListPullJobSpec, ImageListPullJobStatus);
export type ImageListPullJob = Static<typeof ImageListPullJobSchema>;

const columns: PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of image pull job' },
  { name: 'SUCCEEDED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull job succeeded' },
  { name: 'COMPLETED', type: 'integer', jsonPath: '.status.completed', description: 'Number of ImagePullJobs which are finished' },
  AgeColumn,
];

export const imageListPullJobKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'ImageListPullJob',
  plural: 'imagelistpulljobs',
  singular: 'imagelistpulljob',
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: ImageListPullJobSchema, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: ImageListPullJobSchema, printerColumns: columns, subresources: { status: true } },
  ],
});
