/**
 * The SidecarSet checks that read the cluster: the canary's base SidecarSet, the ControllerRevision
 * an injectionStrategy.revision names, and the patchPodMetadata whitelist in the
 * `kruise-configuration` ConfigMap of the Kruise namespace.
 */
import { SidecarSets } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, ControllerRevisions } from '../../api/resource-type.js';
import {
  SidecarSetBaseAnnotation, SidecarSetCustomVersionLabel, SidecarSetNameLabel, SidecarSetPatchPodMetadataWhiteListKey,
} from '../../api/kruise/ops/index.js';
import type { Client } from '../../client/client.js';
import { field, isNotFound, type FieldError } from '../../machinery/errors.js';
import { child, items, str, stringMap, type Json } from '../../machinery/json.js';
import { selectorMatches } from '../../machinery/validation/label-selector.js';
import { canaryBase } from './conflicts.js';

export const KruiseConfigurationName = 'kruise-configuration';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A canary names an existing, non-canary base other than itself, keeps it, and does not roll. */
export async function validateCanary(client: Client, obj: KObject, old: KObject | undefined): Promise<FieldError[]> {
  const base = canaryBase(obj);
  if (!base) return [];
  const annotations = obj.metadata.annotations ?? {};
  if (base === obj.metadata.name) return [field.invalid('metadata', annotations, 'base sidecarSet cannot be itself')];
  const errs: FieldError[] = [];
  const oldBase = old?.metadata.annotations?.[SidecarSetBaseAnnotation];
  if (oldBase && oldBase !== base) errs.push(field.invalid('metadata', annotations, `annotations[${SidecarSetBaseAnnotation}] is immutable`));
  try {
    const baseSet = await client.get(SidecarSets, undefined, base);
    if (canaryBase(baseSet)) errs.push(field.invalid('metadata', annotations, 'base sidecarSet cannot be canary'));
  } catch (e) {
    errs.push(field.invalid('metadata', annotations, `fetch base sidecarSet[${base}] failed: ${message(e)}`));
  }
  if (str(child(child(obj, 'spec'), 'updateStrategy'), 'type') === 'RollingUpdate') {
    errs.push(field.invalid('metadata', annotations, 'RollingUpdate is not supported for canary sidecarSet'));
  }
  return errs;
}

/** injectionStrategy.revision must resolve to a ControllerRevision of this SidecarSet. */
export async function validateRevision(client: Client, obj: KObject, kruiseNamespace: string): Promise<FieldError[]> {
  const revision = child(child(child(obj, 'spec'), 'injectionStrategy'), 'revision');
  const revisionName = str(revision, 'revisionName');
  const customVersion = str(revision, 'customVersion');
  if (!revision || (!revisionName && !customVersion)) return [];
  const p = 'spec.injectionStrategy.revision';
  try {
    if (revisionName) {
      await client.get(ControllerRevisions, kruiseNamespace, revisionName);
      return [];
    }
    const labelSelector = `${SidecarSetNameLabel}=${obj.metadata.name},${SidecarSetCustomVersionLabel}=${customVersion}`;
    const list = await client.list(ControllerRevisions, { namespace: kruiseNamespace, labelSelector });
    if (list.items.length > 0) return [];
    return [field.invalid(p, revision, `Cannot find specific ControllerRevision, err: no revision of customVersion ${customVersion}`)];
  } catch (e) {
    return [field.invalid(p, revision, `Cannot find specific ControllerRevision, err: ${message(e)}`)];
  }
}

interface WhitelistRule { selector?: Json; allowedAnnotationKeyExprs?: string[] }

async function readWhitelist(client: Client, kruiseNamespace: string): Promise<WhitelistRule[] | undefined> {
  let cm: KObject;
  try {
    cm = await client.get(ConfigMaps, kruiseNamespace, KruiseConfigurationName);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  const text = stringMap(cm, 'data')[SidecarSetPatchPodMetadataWhiteListKey];
  if (!text) return undefined;
  const parsed = JSON.parse(text) as { rules?: WhitelistRule[] };
  return parsed.rules ?? [];
}

/** The first whitelist problem of patchPodMetadata, or undefined (no patches: nothing read). */
export async function patchWhitelistProblem(client: Client, obj: KObject, kruiseNamespace: string, defaultsAllowed: boolean): Promise<string | undefined> {
  const patches = items(child(obj, 'spec'), 'patchPodMetadata');
  if (patches.length === 0) return undefined;
  let rules: WhitelistRule[] | undefined;
  try {
    rules = await readWhitelist(client, kruiseNamespace);
  } catch (e) {
    return message(e);
  }
  if (!rules) return defaultsAllowed ? undefined : 'SidecarSet patch metadata whitelist not found';
  const labels = obj.metadata.labels ?? {};
  const exprs: RegExp[] = [];
  for (const rule of rules) {
    if (rule.selector && !selectorMatches(rule.selector, labels)) continue;
    try {
      for (const expr of rule.allowedAnnotationKeyExprs ?? []) exprs.push(new RegExp(expr));
    } catch (e) {
      return message(e);
    }
  }
  if (exprs.length === 0) return defaultsAllowed ? undefined : 'sidecarSet patch metadata annotation is not allowed';
  for (const patch of patches) {
    for (const key of Object.keys(stringMap(patch, 'annotations'))) {
      if (!exprs.some((re) => re.test(key))) return `sidecarSet patch metadata annotation(${key}) is not allowed`;
    }
  }
  return undefined;
}
