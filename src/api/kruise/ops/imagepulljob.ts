/**
 * ImagePullJob (apps.kruise.io): pulls one image on a set of nodes through their NodeImages.
 * Both versions share one schema; v1beta1 is stored and only v1alpha1 prints MESSAGE.
 */
import { Type, type Static } from '@sinclair/typebox';
import { IntOrString } from '../common.js';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { CompletionPolicy } from './broadcastjob.js';
import { inlineSelectorProps } from './core-types.js';
import { AgeColumn, Int32, Opt, Str, StringMap, Time, kindObject } from './schema.js';

/** Finalizer kept until the job's synced pull secrets are released. */
export const ImagePullJobProtectionFinalizer = 'apps.kruise.io/deletion-protection';
/** Annotations of the Secret copies in the daemon config namespace. */
export const ImagePullSecretSourceKeyAnnotation = 'imagepulljobs.kruise.io/source-key';
export const ImagePullSecretReferencesAnnotation = 'imagepulljobs.kruise.io/references';
export const ImagePullSecretModeAnnotation = 'imagepulljobs.kruise.io/mode';
export const ImagePullSecretModeBatch = 'batch';
/** Workload annotations that tune image pre-download for in-place updates. */
export const ImagePreDownloadParallelismAnnotation = 'apps.kruise.io/image-predownload-parallelism';
export const ImagePreDownloadTimeoutSecondsAnnotation = 'apps.kruise.io/image-predownload-timeout-seconds';
export const ImagePreDownloadMinUpdatedReadyPodsAnnotation = 'apps.kruise.io/image-predownload-min-updated-ready-pods';

export type ImagePullPolicy = 'Always' | 'IfNotPresent';

export const PullPolicy = Type.Object({ backoffLimit: Opt(Int32()), timeoutSeconds: Opt(Int32()) });
export const SandboxConfig = Type.Object({ annotations: Opt(StringMap()), labels: Opt(StringMap()) });

/** Node names or a NodeImage label selector (mutually exclusive, checked by the webhook). */
export const ImagePullJobNodeSelector = Type.Object({ ...inlineSelectorProps, names: Opt(Type.Array(Str())) });

/** Everything of an ImagePullJob spec but the image; ImageListPullJob reuses it. */
export const imagePullJobTemplateProps = {
  completionPolicy: CompletionPolicy,
  imagePullPolicy: Opt(Type.Unsafe<ImagePullPolicy>(Str())),
  parallelism: Opt(IntOrString),
  podSelector: Opt(Type.Object(inlineSelectorProps)),
  pullPolicy: Opt(PullPolicy),
  pullSecrets: Opt(Type.Array(Str())),
  sandboxConfig: Opt(SandboxConfig),
  selector: Opt(ImagePullJobNodeSelector),
};

export const ImagePullJobSpec = Type.Object({ image: Str(), ...imagePullJobTemplateProps });
export type ImagePullJobSpec = Static<typeof ImagePullJobSpec>;

export const ImagePullJobStatus = Type.Object({
  active: Opt(Int32()),
  completionTime: Opt(Time()),
  desired: Int32(),
  failed: Opt(Int32()),
  failedNodes: Opt(Type.Array(Str())),
  message: Opt(Str()),
  startTime: Opt(Time()),
  succeeded: Opt(Int32()),
});

export const ImagePullJobSchema = kindObject(ImagePullJobSpec, ImagePullJobStatus);
export type ImagePullJob = Static<typeof ImagePullJobSchema>;

const columns: PrinterColumn[] = [
  { name: 'TOTAL', type: 'integer', jsonPath: '.status.desired', description: 'Number of all nodes matched by this job' },
  { name: 'ACTIVE', type: 'integer', jsonPath: '.status.active', description: 'Number of image pull task active' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull task succeeded' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of image pull tasks failed' },
  AgeColumn,
];
const alphaColumns: PrinterColumn[] = [
  ...columns,
  { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of status when job is failed' },
];

export const imagePullJobKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'ImagePullJob',
  plural: 'imagepulljobs',
  singular: 'imagepulljob',
  scope: 'Namespaced',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: ImagePullJobSchema, printerColumns: alphaColumns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: ImagePullJobSchema, printerColumns: columns, subresources: { status: true } },
  ],
});
