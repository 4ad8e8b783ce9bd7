/** Label and field selection of stored objects, shared by list, watch and deletecollection. */
import type { KObject } from '../../api/meta.js';
import { parseLabelSelector } from '../../machinery/labels.js';
import { parseFieldSelector, checkSupportedFields } from '../../machinery/fields.js';
import type { ServedResource } from './served-resource.js';

export interface Selection {
  labelSelector?: string;
  fieldSelector?: string;
}

export type Matcher = (obj: KObject) => boolean;

const supportedCache = new WeakMap<ServedResource, Set<string>>();

function supportedFields(r: ServedResource): Set<string> {
  let set = supportedCache.get(r);
  if (!set) {
    set = new Set(['metadata.name', 'metadata.namespace']);
    try {
      const probe = { metadata: {}, spec: {}, status: {}, involvedObject: {}, source: {} } as KObject;
      for (const k of Object.keys(r.strategy.fieldAttributes?.(probe) ?? {})) set.add(k);
    } catch {
      // a strategy that cannot describe an empty object simply offers no extra fields
    }
    supportedCache.set(r, set);
  }
  return set;
}

/** Builds one predicate from both selectors; throws 400 on bad syntax or unsupported fields. */
export function buildMatcher(r: ServedResource, sel: Selection): Matcher | undefined {
  const labels = sel.labelSelector ? parseLabelSelector(sel.labelSelector) : undefined;
  const fields = sel.fieldSelector ? parseFieldSelector(sel.fieldSelector) : undefined;
  if (fields) checkSupportedFields(fields, supportedFields(r));
  const useLabels = labels && !labels.empty;
  const useFields = fields && !fields.empty;
  if (!useLabels && !useFields) return undefined;
  return (obj) => {
    if (useLabels && !labels.matches(obj.metadata.labels)) return false;
    if (useFields) {
      let extra: Record<string, string> | undefined;
      return fields.matches((f) => {
        if (f === 'metadata.name') return obj.metadata.name;
        if (f === 'metadata.namespace') return obj.metadata.namespace ?? '';
        extra ??= r.strategy.fieldAttributes?.(obj) ?? {};
        return extra[f];
      });
    }
    return true;
  };
}
