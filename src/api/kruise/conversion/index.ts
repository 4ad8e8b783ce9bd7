/**
 * Conversion between the served versions of every Kruise kind, through the hub (the storage
 * version, v1beta1): spoke → hub → spoke. Used by the manager's `/convert` endpoint, by the
 * embedded API server for stored objects, and by the admission handlers (which work on the hub).
 * Metadata, status and fields a kind's table does not mention carry over unchanged.
 */
import type { KObject } from '../../meta.js';
import type { KindDefinition } from '../define-kind.js';
import { kruiseKinds } from '../index.js';
import { advancedCronJobConversion } from './advancedcronjob.js';
import { cloneSetConversion } from './cloneset.js';
import { containerRecreateRequestConversion } from './containerrecreaterequest.js';
import { daemonSetConversion } from './daemonset.js';
import { ConversionError, identityConversion, objectKey, type KindConversion } from './helpers.js';
import { nodeImageConversion } from './nodeimage.js';
import { persistentPodStateConversion } from './persistentpodstate.js';
import { podUnavailableBudgetConversion } from './podunavailablebudget.js';
import { resourceDistributionConversion } from './resourcedistribution.js';
import { sidecarSetConversion } from './sidecarset.js';
import { statefulSetConversion } from './statefulset.js';
import { unitedDeploymentConversion } from './united-deployment.js';
import { workloadSpreadConversion } from './workload-spread.js';

export { ConversionError } from './helpers.js';

/** Kinds whose versions share one schema: only apiVersion changes. */
const identical = (kind: string): KindConversion => ({ group: 'apps.kruise.io', kind, spokes: { v1alpha1: identityConversion } });

const conversions: KindConversion[] = [
  cloneSetConversion, statefulSetConversion, daemonSetConversion, unitedDeploymentConversion, workloadSpreadConversion,
  sidecarSetConversion, containerRecreateRequestConversion, advancedCronJobConversion, nodeImageConversion,
  resourceDistributionConversion, persistentPodStateConversion, podUnavailableBudgetConversion,
  identical('BroadcastJob'), identical('ImagePullJob'), identical('ImageListPullJob'),
];
const byKind = new Map(conversions.map((c) => [`${c.kind}.${c.group}`, c]));

export interface ConversionKind {
  group: string;
  kind: string;
  /** Served versions, in the order the kind declares them. */
  versions: string[];
  /** The storage version every conversion goes through. */
  hub: string;
}

function definition(group: string, kind: string): KindDefinition | undefined {
  return kruiseKinds.find((k) => k.group === group && k.kind === kind);
}

/** The hub (storage) version of a Kruise kind, or undefined for a kind that is not one. */
export function hubVersionOf(group: string, kind: string): string | undefined {
  return definition(group, kind)?.versions.find((v) => v.storage)?.name;
}

/** Every Kruise kind served in more than one version (the ones that need conversion). */
export function conversionKinds(): ConversionKind[] {
  return kruiseKinds
    .map((def) => ({ group: def.group, kind: def.kind, versions: def.versions.filter((v) => v.served).map((v) => v.name), hub: hubVersionOf(def.group, def.kind)! }))
    .filter((k) => k.versions.length > 1);
}

function splitApiVersion(apiVersion: unknown): { group: string; version: string } {
  const parts = typeof apiVersion === 'string' ? apiVersion.split('/') : [];
  if (parts.length !== 2 || !parts[0] || !parts[1]) throw new ConversionError(`invalid apiVersion ${JSON.stringify(apiVersion)}: want <group>/<version>`);
  return { group: parts[0], version: parts[1] };
}

/**
 * Converts an object of a Kruise kind to `toApiVersion` (same group). Returns a new object and
 * never mutates `obj`; the same version returns `obj` itself. Throws ConversionError for an unknown
 * kind or version, a different group, or an object the target version cannot represent.
 */
export function convertKruiseObject(obj: KObject, toApiVersion: string): KObject {
  const from = splitApiVersion(obj.apiVersion);
  const to = splitApiVersion(toApiVersion);
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const def = definition(from.group, kind);
  if (!def) throw new ConversionError(`${kind || '<no kind>'}.${from.group} is not a Kruise kind`);
  if (to.group !== from.group) throw new ConversionError(`cannot convert ${kind} from group ${from.group} to group ${to.group}`);
  const served = def.versions.filter((v) => v.served).map((v) => v.name);
  for (const v of [from.version, to.version]) {
    if (!served.includes(v)) throw new ConversionError(`${kind}.${def.group} has no served version ${v} (served: ${served.join(', ')})`);
  }
  if (from.version === to.version) return obj;

  const hub = hubVersionOf(def.group, kind)!;
  const conversion = byKind.get(`${kind}.${def.group}`);
  const spoke = (v: string) => {
    if (v === hub) return undefined;
    const s = conversion?.spokes[v];
    if (!s) throw new ConversionError(`no conversion registered for ${kind}.${def.group} ${v} ⇄ ${hub}`);
    return s;
  };
  const [source, target] = [spoke(from.version), spoke(to.version)];
  try {
    let out = structuredClone(obj);
    if (source) out = source.toHub(out);
    if (target) out = target.fromHub(out);
    out.apiVersion = toApiVersion;
    return out;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new ConversionError(`${kind} ${objectKey(obj)}: cannot convert ${from.group}/${from.version} to ${toApiVersion}: ${why}`);
  }
}
