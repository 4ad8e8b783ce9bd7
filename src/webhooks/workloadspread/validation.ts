/**
 * WorkloadSpread validation (docs/design/webhooks.md §13): target reference, subsets, subset patches,
 * schedule strategy, target filter, conflicts with other WorkloadSpreads, and on update an
 * unchanged target. Reads the target, the whitelist and the namespace's WorkloadSpreads.
 */
import { WorkloadSpreads } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { field, type FieldError } from '../../machinery/errors.js';
import { specOf } from '../../machinery/podspec/workload-validation.js';
import { validateLabelSelector } from '../../machinery/validation/label-selector.js';
import { child, has, items, str, type Json } from '../../machinery/json.js';
import { validateSubsetPatches } from './patch.js';
import { subsetFieldNames, validateSubsets } from './subsets.js';
import { groupOf } from '../common/target-ref.js';
import { getTarget, knownKinds, readWhitelist, sameTarget, type TargetRef } from './target.js';


/** A pending pod may wait this long in one subset before it is rescheduled (MaxScheduledFailedDuration). */
const maxScheduledFailedSeconds = 300;

export interface ValidationContext { client: Client; version: string; kruiseNamespace: string }

export function targetRefOf(obj: KObject): TargetRef | undefined {
  const ref = child(specOf(obj), 'targetRef');
  return ref ? { apiVersion: str(ref, 'apiVersion'), kind: str(ref, 'kind'), name: str(ref, 'name') } : undefined;
}

export async function validateWorkloadSpread(obj: KObject, ctx: ValidationContext): Promise<FieldError[]> {
  const spec = specOf(obj);
  const ref = targetRefOf(obj);
  const subsets = items(spec, 'subsets');
  const errs = await targetRefErrors(ref, ctx);
  errs.push(...validateSubsets(subsets, ref?.kind ?? '', subsetFieldNames(ctx.version)));
  if (ref && errs.length === 0 && subsets.some((s) => has(s, 'patch'))) {
    const target = await getTarget(ctx.client, obj.metadata.namespace ?? '', ref);
    if (target) errs.push(...validateSubsetPatches(subsets, target));
  }
  errs.push(...scheduleStrategyErrors(child(spec, 'scheduleStrategy'), subsets));
  errs.push(...validateLabelSelector(child(child(spec, 'targetFilter'), 'selector'), 'spec.targetFilter.selector'));
  errs.push(...await conflictErrors(obj, ref, ctx.client));
  return errs;
}

async function targetRefErrors(ref: TargetRef | undefined, ctx: ValidationContext): Promise<FieldError[]> {
  const p = 'spec.targetRef';
  if (!ref) return [field.required(p, 'no targetRef defined in WorkloadSpread')];
  if (!ref.apiVersion || !ref.kind || !ref.name) return [field.invalid(p, ref, 'empty TargetReference is not valid for WorkloadSpread.')];
  const group = groupOf(ref.apiVersion);
  const groups = knownKinds[ref.kind];
  if (groups) return group !== undefined && groups.includes(group) ? [] : [field.invalid(p, ref, `TargetReference is not valid for ${ref.kind}.`)];
  let whitelist;
  try {
    whitelist = await readWhitelist(ctx.client, ctx.kruiseNamespace);
  } catch (err) {
    return [{ type: 'InternalError', field: p, detail: (err as Error).message }];
  }
  if (whitelist.some((w) => w.kind === ref.kind && w.group === group)) return [];
  return [field.invalid(p, ref, "TargetReference's GroupKind is not permitted.")];
}

function scheduleStrategyErrors(strategy: Json | undefined, subsets: Json[]): FieldError[] {
  const p = 'spec.scheduleStrategy';
  const errs: FieldError[] = [];
  const type = strategy?.type ?? '';
  if (type !== '' && type !== 'Fixed' && type !== 'Adaptive') errs.push(field.invalid(`${p}.type`, type, "ScheduleStrategy's type is not valid"));
  const adaptive = child(strategy, 'adaptive');
  if (!adaptive) return errs;
  const seconds = adaptive.rescheduleCriticalSeconds;
  if (type !== 'Adaptive') errs.push(field.invalid(`${p}.type`, seconds ?? null, "the scheduleStrategy's type must be adaptive when using adaptive scheduleStrategy"));
  if (subsets.length > 1 && has(subsets[subsets.length - 1], 'maxReplicas')) {
    errs.push(field.invalid(`${p}.adaptive`, seconds ?? null, 'the last subset must be not specified when using adaptive scheduleStrategy'));
  }
  const allowed = subsets.length > 1 ? Math.trunc((maxScheduledFailedSeconds - 5) / (subsets.length - 1)) : 2147483647;
  if (typeof seconds === 'number' && (seconds < 0 || seconds > allowed)) {
    errs.push(field.invalid(`${p}.adaptive.rescheduleCriticalSeconds`, seconds, `rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > ${allowed} is not permitted`));
  }
  return errs;
}

async function conflictErrors(obj: KObject, ref: TargetRef | undefined, client: Client): Promise<FieldError[]> {
  if (!ref) return [];
  const others = await client.list(WorkloadSpreads, { namespace: obj.metadata.namespace });
  for (const other of others.items) {
    const otherRef = targetRefOf(other);
    if (other.metadata.name === obj.metadata.name || !otherRef || !sameTarget(ref, otherRef)) continue;
    return [field.invalid('spec.targetRef', ref, `ws.spec.targetRef is in conflict with other WorkloadSpread ${other.metadata.name}`)];
  }
  return [];
}

export function validateTargetRefUpdate(obj: KObject, old: KObject): FieldError[] {
  const ref = targetRefOf(obj);
  const oldRef = targetRefOf(old);
  if (!ref || !oldRef || sameTarget(ref, oldRef)) return [];
  return [field.invalid('spec.targetRef', ref, 'change TargetReference is not permitted for WorkloadSpread')];
}
