/**
 * The three kinds an AdvancedCronJob creates (docs/design/jobs.md §4): which one its template
 * names, when a child is finished (and whether it failed), and the child for one scheduled time:
 * named `<acj>-<unix seconds>`, the template's labels and annotations plus scheduled-at, a
 * controller reference, the template's spec copied.
 */
import { ScheduledAtAnnotation, type TemplateKind } from '../../api/kruise/ops/advancedcronjob.js';
import { BroadcastJobs, ImageListPullJobs } from '../../api/kruise/resource-types.js';
import { Jobs, type ResourceType } from '../../api/resource-type.js';
import { newControllerRef } from '../../control/ownership/index.js';
import { clone } from '../../machinery/deep-equal.js';
import { formatRfc3339InZone } from '../../machinery/time-zone.js';
import type { AdvancedCronJob, Child } from './types.js';

export const AdvancedCronJobApiVersion = 'apps.kruise.io/v1beta1';

export interface ChildKind {
  kind: TemplateKind;
  type: ResourceType;
  apiVersion: string;
}

export const childKinds: Record<TemplateKind, ChildKind> = {
  Job: { kind: 'Job', type: Jobs, apiVersion: 'batch/v1' },
  BroadcastJob: { kind: 'BroadcastJob', type: BroadcastJobs, apiVersion: 'apps.kruise.io/v1beta1' },
  ImageListPullJob: { kind: 'ImageListPullJob', type: ImageListPullJobs, apiVersion: 'apps.kruise.io/v1beta1' },
};

/** Job if jobTemplate, else ImageListPullJob if imageListPullJobTemplate, else BroadcastJob. */
export function templateKind(acj: AdvancedCronJob): TemplateKind {
  const t = acj.spec?.template;
  if (t?.jobTemplate) return 'Job';
  if (t?.imageListPullJobTemplate) return 'ImageListPullJob';
  return 'BroadcastJob';
}

interface Template { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown }

function templateOf(acj: AdvancedCronJob, kind: TemplateKind): Template | undefined {
  const t = acj.spec?.template;
  if (kind === 'Job') return t?.jobTemplate as Template | undefined;
  if (kind === 'ImageListPullJob') return t?.imageListPullJobTemplate as Template | undefined;
  return t?.broadcastJobTemplate as Template | undefined;
}

/** 'succeeded' / 'failed' once finished, undefined while it runs. */
export function finishedAs(child: Child, kind: TemplateKind): 'succeeded' | 'failed' | undefined {
  if (kind === 'ImageListPullJob') {
    if (!child.status?.completionTime) return undefined;
    return child.status.succeeded === child.status.desired ? 'succeeded' : 'failed';
  }
  const done = (child.status?.conditions ?? []).find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!done) return undefined;
  return done.type === 'Complete' ? 'succeeded' : 'failed';
}

/** Seconds, not minutes as the built-in CronJob names them. */
export const childName = (acj: AdvancedCronJob, scheduled: number): string => `${acj.metadata.name}-${Math.floor(scheduled / 1000)}`;

export function newChild(acj: AdvancedCronJob, kind: ChildKind, scheduled: number, zone: string | undefined): Child {
  const template = templateOf(acj, kind.kind);
  return {
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    metadata: {
      name: childName(acj, scheduled),
      namespace: acj.metadata.namespace,
      labels: { ...template?.metadata?.labels },
      annotations: { ...template?.metadata?.annotations, [ScheduledAtAnnotation]: formatRfc3339InZone(scheduled, zone) },
      ownerReferences: [newControllerRef(acj, AdvancedCronJobApiVersion, 'AdvancedCronJob')],
    },
    spec: clone(template?.spec ?? {}),
  };
}
