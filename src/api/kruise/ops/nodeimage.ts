/**
 * NodeImage (apps.kruise.io, cluster-scoped, one per node, named after it): the images the
 * node's kruise-daemon must pull and their pull status. v1beta1 is stored; it adds `mode` to pull
 * secret references (v1beta1→v1alpha1 drops it).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { defineKind, type PrinterColumn } from '../define-kind.js';
import { ObjectReference } from './core-types.js';
import { SandboxConfig, type ImagePullPolicy } from './imagepulljob.js';
import { AgeColumn, Int32, Int64, MapOf, Opt, Str, Time, kindObject } from './schema.js';

/** Keeps a NodeImage whose Node does not exist (tests). */
export const FakeNodeImageLabel = 'apps.kruise.io/fake-nodeimage';
/** CRI sandbox annotation the daemon adds to every PullImage. */
export const PullingImageByAnnotation = 'apps.kruise.io/pulling-image-by';
export const PullingImageByKruiseDaemon = 'kruise-daemon';

export type ImagePullPhase = 'Waiting' | 'Pulling' | 'Succeeded' | 'Failed';

export const ImageTagPullPolicy = Type.Object({
  activeDeadlineSeconds: Opt(Int64()),
  backoffLimit: Opt(Int32()),
  timeoutSeconds: Opt(Int32()),
  ttlSecondsAfterFinished: Opt(Int32()),
});

const SecretRefV1alpha1 = Type.Object({ name: Opt(Str()), namespace: Opt(Str()) });
/** `mode: batch` marks secrets synced the new way (copies in the daemon config namespace). */
const SecretRefV1beta1 = Type.Object({ mode: Opt(Str()), name: Opt(Str()), namespace: Opt(Str()) });

function nodeImageSpec<R extends TSchema>(ref: R) {
  const tag = Type.Object({
    createdAt: Opt(Time()),
    imagePullPolicy: Opt(Type.Unsafe<ImagePullPolicy>(Str())),
    ownerReferences: Opt(Type.Array(ObjectReference)),
    pullPolicy: Opt(ImageTagPullPolicy),
    pullSecrets: Opt(Type.Array(ref)),
    tag: Str(),
    version: Opt(Int64()),
  });
  const image = Type.Object({
    pullSecrets: Opt(Type.Array(ref)),
    sandboxConfig: Opt(SandboxConfig),
    tags: Type.Array(tag),
  });
  return Type.Object({ images: Opt(MapOf(image)) });
}

export const ImageTagStatus = Type.Object({
  completionTime: Opt(Time()),
  imageID: Opt(Str()),
  message: Opt(Str()),
  phase: Type.Unsafe<ImagePullPhase>(Str()),
  progress: Opt(Int32()),
  startTime: Opt(Time()),
  tag: Str(),
  version: Opt(Int64()),
});

export const NodeImageStatus = Type.Object({
  desired: Int32(),
  failed: Opt(Int32()),
  firstSyncStatus: Opt(Type.Object({ message: Opt(Str()), status: Opt(Str()), syncAt: Opt(Time()) })),
  imageStatuses: Opt(MapOf(Type.Object({ tags: Type.Array(ImageTagStatus) }))),
  pulling: Opt(Int32()),
  succeeded: Opt(Int32()),
  waiting: Opt(Int32()),
});

export const NodeImageSchemaV1alpha1 = kindObject(nodeImageSpec(SecretRefV1alpha1), NodeImageStatus);
export const NodeImageSchemaV1beta1 = kindObject(nodeImageSpec(SecretRefV1beta1), NodeImageStatus);
export type NodeImageV1alpha1 = Static<typeof NodeImageSchemaV1alpha1>;
/** The hub version controllers and the daemon work on. */
export type NodeImage = Static<typeof NodeImageSchemaV1beta1>;

const columns: PrinterColumn[] = [
  { name: 'DESIRED', type: 'integer', jsonPath: '.status.desired', description: 'Number of all images on this node' },
  { name: 'PULLING', type: 'integer', jsonPath: '.status.pulling', description: 'Number of image pull task active' },
  { name: 'SUCCEED', type: 'integer', jsonPath: '.status.succeeded', description: 'Number of image pull task succeeded' },
  { name: 'FAILED', type: 'integer', jsonPath: '.status.failed', description: 'Number of image pull tasks failed' },
  AgeColumn,
];

export const nodeImageKind = defineKind({
  group: 'apps.kruise.io',
  kind: 'NodeImage',
  plural: 'nodeimages',
  singular: 'nodeimage',
  scope: 'Cluster',
  versions: [
    { name: 'v1alpha1', served: true, storage: false, schema: NodeImageSchemaV1alpha1, printerColumns: columns, subresources: { status: true } },
    { name: 'v1beta1', served: true, storage: true, schema: NodeImageSchemaV1beta1, printerColumns: columns, subresources: { status: true } },
  ],
});
