/**
 * Rows of the Kruise and batch kinds that are not rolling workloads: UnitedDeployment (replicas per
 * subset), WorkloadSpread (what each subset misses, creates, deletes), AdvancedCronJob and CronJob
 * (schedule, last run, active jobs), ImagePullJob (pulled on how many nodes) and
 * PodUnavailableBudget (how many may go) (docs/design/dashboard.md §10). One generic row shape: a
 * few labelled fields and optional per-subset lines, so the page draws them all with one table.
 */
import type { KObject } from '../api/meta.js';

export interface OtherRow { kind: string; ns: string; name: string; fields: [string, string][]; subsets: [string, string][] }

type Any = Record<string, any>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const count = (m: unknown): number => (m && typeof m === 'object' ? Object.keys(m).length : 0);

function unitedDeployment(spec: Any, s: Any): Pick<OtherRow, 'fields' | 'subsets'> {
  // v1beta1 keeps replicas in subsetStatuses[], v1alpha1 in the subsetReplicas map.
  const perSubset = new Map<string, number>(Object.entries(s.subsetReplicas ?? {}).map(([k, v]) => [k, num(v)]));
  for (const sub of (s.subsetStatuses ?? []) as Any[]) if (sub.name) perSubset.set(sub.name, num(sub.replicas));
  for (const sub of (spec.topology?.subsets ?? []) as Any[]) if (sub.name && !perSubset.has(sub.name)) perSubset.set(sub.name, 0);
  return {
    fields: [['replicas', `${num(s.readyReplicas)}/${num(spec.replicas ?? s.replicas)} ready`], ['updated', String(num(s.updatedReplicas))]],
    subsets: [...perSubset].map(([name, n]) => [name, `${n} replicas`]),
  };
}

function workloadSpread(s: Any): Pick<OtherRow, 'fields' | 'subsets'> {
  const subsets = ((s.subsetStatuses ?? []) as Any[]).map((sub): [string, string] =>
    [String(sub.name ?? ''), `missing ${num(sub.missingReplicas)}, creating ${count(sub.creatingPods)}, deleting ${count(sub.deletingPods)}`]);
  return { fields: [['subsets', String(subsets.length)]], subsets };
}

function cronJob(spec: Any, s: Any): Pick<OtherRow, 'fields' | 'subsets'> {
  return {
    fields: [['schedule', String(spec.schedule ?? '')], ['last schedule', String(s.lastScheduleTime ?? 'never')], ['active', String((s.active ?? []).length)], ...(spec.paused || spec.suspend ? [['suspended', 'yes'] as [string, string]] : [])],
    subsets: [],
  };
}

export function otherRow(obj: KObject): OtherRow {
  const spec = (obj as Any).spec ?? {};
  const s = (obj as Any).status ?? {};
  const base = { kind: obj.kind ?? '', ns: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' };
  switch (obj.kind) {
    case 'UnitedDeployment': return { ...base, ...unitedDeployment(spec, s) };
    case 'WorkloadSpread': return { ...base, ...workloadSpread(s) };
    case 'AdvancedCronJob': case 'CronJob': return { ...base, ...cronJob(spec, s) };
    case 'ImagePullJob':
      return { ...base, fields: [['desired', String(num(s.desired))], ['succeeded', String(num(s.succeeded))], ['failed', String(num(s.failed))], ['active', String(num(s.active))]], subsets: [] };
    case 'PodUnavailableBudget':
      return { ...base, fields: [['unavailable allowed', String(num(s.unavailableAllowed))], ['available', `${num(s.currentAvailable)}/${num(s.desiredAvailable)}`]], subsets: [] };
    default: return { ...base, fields: [], subsets: [] };
  }
}
