/**
 * An AdvancedCronJob's children sorted out (docs/design/jobs.md §4): active, succeeded and failed,
 * the latest scheduled-at among them, the status they imply, and the finished ones beyond the
 * history limits (oldest start first, a child not started counting as oldest).
 */
import { ScheduledAtAnnotation, type TemplateKind } from '../../api/kruise/ops/advancedcronjob.js';
import { rfc3339, timeOf } from '../../machinery/time.js';
import { finishedAs } from './children.js';
import type { AdvancedCronJob, Child } from './types.js';

export interface Children {
  active: Child[];
  succeeded: Child[];
  failed: Child[];
  /** The latest scheduled-at annotation, in ms. */
  mostRecent?: number;
}

export function sortChildren(children: readonly Child[], kind: TemplateKind): Children {
  const out: Children = { active: [], succeeded: [], failed: [] };
  for (const child of children) {
    const finished = finishedAs(child, kind);
    out[finished ?? 'active'].push(child);
    const at = timeOf(child.metadata.annotations?.[ScheduledAtAnnotation]);
    if (at !== undefined && (out.mostRecent === undefined || at > out.mostRecent)) out.mostRecent = at;
  }
  return out;
}

type Status = NonNullable<AdvancedCronJob['status']>;

/**
 * type, the active children and lastScheduleTime. DEV: lastScheduleTime never goes backwards (upstream
 * resets it when no child is left, after which history limit 0 replays up to 100 missed runs).
 */
export function statusFor(acj: AdvancedCronJob, kind: TemplateKind, children: Children): Status {
  const kept = timeOf(acj.status?.lastScheduleTime);
  const last = Math.max(kept ?? -Infinity, children.mostRecent ?? -Infinity);
  const status: Status = { type: kind };
  if (children.active.length > 0) {
    status.active = children.active.map((c) => ({ apiVersion: c.apiVersion, kind: c.kind ?? kind, name: c.metadata.name, namespace: c.metadata.namespace, uid: c.metadata.uid }));
  }
  if (Number.isFinite(last)) status.lastScheduleTime = rfc3339(last);
  return status;
}

const startOf = (c: Child) => timeOf(c.status?.startTime) ?? -Infinity;

/** The finished children to delete: all but the newest `limit` of each kind (no limit: none). */
export function beyondHistory(acj: AdvancedCronJob, children: Children): Child[] {
  const oldest = (list: Child[], limit: number | undefined) => (limit === undefined || limit === null
    ? [] : [...list].sort((a, b) => startOf(a) - startOf(b)).slice(0, Math.max(0, list.length - limit)));
  return [...oldest(children.failed, acj.spec?.failedJobsHistoryLimit), ...oldest(children.succeeded, acj.spec?.successfulJobsHistoryLimit)];
}
