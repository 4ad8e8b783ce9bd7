/**
 * Conversion between the served versions of every Kruise kind (hub = the storage version).
 * PLACEHOLDER until the per-kind converters land: only rewrites apiVersion.
 */
import type { KObject } from '../../meta.js';

/** Converts an object of a Kruise kind to `toApiVersion`; throws Error when it cannot be converted. */
export function convertKruiseObject(obj: KObject, toApiVersion: string): KObject {
  if (obj.apiVersion === toApiVersion) return obj;
  return { ...obj, apiVersion: toApiVersion };
}
