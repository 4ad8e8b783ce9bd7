/**
 * Everything the generic registry needs to serve one group/version/resource: its discovery record,
 * strategy, where it is stored (several versions, and events.k8s.io/v1 beside core/v1 events, share
 * one storage prefix) and how to convert between the served and the stored version.
 */
import type { KObject } from '../../api/meta.js';
import type { ResourceDefinition, TablePrinter } from '../../api/resource.js';
import type { ResourceStrategy } from './strategy.js';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import type { PatchSchema } from '../../machinery/patch/strategic-merge-patch.js';
import type { SubresourceStorage } from './subresource.js';

export interface ServedResource {
  definition: ResourceDefinition;
  strategy: ResourceStrategy;
  tracksGeneration: boolean;
  /** Storage key prefix shared by every version of the resource, e.g. `/apps/deployments`. */
  storagePrefix: string;
  /** apiVersion objects are stored in. */
  storageApiVersion: string;
  /** Schema used for pruning, validation and defaulting (CRDs), or only unknown-field detection (built-ins). */
  schema?: JSONSchemaProps;
  /** Whether `schema` is authoritative (CRDs) or advisory (built-ins, derived from client models). */
  schemaIsAuthoritative: boolean;
  printer?: TablePrinter;
  /** Strategic merge patch metadata; undefined means SMP is refused with 415 (custom resources). */
  patchSchema?: PatchSchema;
  /** Converts an object (stored or submitted) to the given apiVersion of this resource. */
  convert(obj: KObject, toApiVersion: string): Promise<KObject>;
  /** For CRDs: the CRD's name, so deletion of the CRD can find its instances. */
  crdName?: string;
  /** Subresources served, by name, each its own storage (subresource.ts); none when absent. */
  subresources?: ReadonlyMap<string, SubresourceStorage>;
}

export function apiVersionOf(def: { group: string; version: string }): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

/** Conversion that only rewrites apiVersion (CRD conversion strategy `None`, identical versions). */
export async function rewriteApiVersion(obj: KObject, toApiVersion: string): Promise<KObject> {
  if (obj.apiVersion === toApiVersion) return obj;
  return { ...obj, apiVersion: toApiVersion };
}
