/**
 * `kubectl kruise set resources TYPE/NAME --limits=cpu=200m,memory=512Mi --requests=cpu=100m`
 * (docs/design/manager.md §12), as kubectl's `set resources`: `-c/--containers` (a glob; `*` by
 * default), quantities canonical as the API writes them, each named resource replaced and the others
 * kept; no change writes and prints nothing.
 */
import { canonicalizeQuantity, isValidQuantity, QUANTITY_FORMAT_ERROR } from '../../machinery/quantity.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { containerGlob, emit, workloadTarget, type WriteFlags } from './target.js';

export interface SetResourcesOptions extends WriteFlags { containers: string; limits?: string; requests?: string }

/** `cpu=200m,memory=512Mi` into a resource list. */
function resourceList(spec: string | undefined): Record<string, string> {
  const list: Record<string, string> = {};
  for (const pair of (spec ?? '').split(',').filter(Boolean)) {
    const [name, value] = pair.split('=', 2) as [string, string | undefined];
    if (!name || value === undefined) throw new Error(`invalid argument syntax ${pair}, expected <resource>=<value>`);
    if (!isValidQuantity(value)) throw new Error(QUANTITY_FORMAT_ERROR);
    list[name] = canonicalizeQuantity(value);
  }
  return list;
}


export async function runSetResources(ref: string, o: SetResourcesOptions, print = console.log): Promise<void> {
  const limits = resourceList(o.limits);
  const requests = resourceList(o.requests);
  if (Object.keys(limits).length + Object.keys(requests).length === 0) throw new Error('you must specify an update to requests or limits (in the form of --requests/--limits)');
  const t = workloadTarget([ref], o);
  const { object, changed } = await t.edit((w) => {
    const spec = w.spec.template.spec!;
    const matched = [...(spec.initContainers ?? []), ...spec.containers].filter((c) => containerGlob(o.containers).test(c.name));
    if (matched.length === 0) throw new Error(`unable to find container named ${o.containers}`);
    let changes = false;
    for (const c of matched) {
      const before = structuredClone(c.resources ?? {});
      const resources = (c.resources ??= {});
      if (Object.keys(limits).length) resources.limits = { ...resources.limits, ...limits };
      if (Object.keys(requests).length) resources.requests = { ...resources.requests, ...requests };
      changes ||= !deepEqual(before, resources);
    }
    return changes;
  });
  if (changed) emit(t.kind.type, object, 'resource requirements updated', o, print);
}
