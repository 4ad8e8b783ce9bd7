/**
 * Built-in resources as served resources: storage location and version, printers, strategic merge
 * patch metadata, and advisory schemas (for unknown-field detection and OpenAPI). events.k8s.io/v1
 * is a second view of the core/v1 events storage.
 */
import type { KObject } from '../api/meta.js';
import { builtinResources, type BuiltinOptions, coreEventToEventsV1, eventsV1ToCoreEvent } from './registry/builtin/index.js';
import { builtinPrinters } from './printers/index.js';
import { builtinSchema } from './openapi/index.js';
import { builtinPatchSchema } from '../machinery/patch/builtin-patch-meta.js';
import { storagePrefixFor } from './registry/keys.js';
import { apiVersionOf, rewriteApiVersion, type ServedResource } from './registry/served-resource.js';
import { subresourceTable } from './registry/subresource.js';
import type { JSONSchemaProps } from '../machinery/schema/types.js';

async function eventsConvert(obj: KObject, to: string): Promise<KObject> {
  if (obj.apiVersion === to) return obj;
  return to === 'v1' ? eventsV1ToCoreEvent(obj) : coreEventToEventsV1(obj);
}

const viewConvert = (convert: (obj: KObject, to: string) => KObject) => async (obj: KObject, to: string): Promise<KObject> => convert(obj, to);

export function builtinServedResources(options: BuiltinOptions = {}): ServedResource[] {
  return builtinResources(options).map(({ definition: d, strategy, tracksGeneration, subresources, storedAs }) => {
    const isEventsView = d.group === 'events.k8s.io';
    let schema: JSONSchemaProps | undefined;
    try {
      schema = builtinSchema(d.group, d.version, d.kind) as JSONSchemaProps | undefined;
    } catch {
      schema = undefined;
    }
    return {
      definition: d,
      strategy,
      tracksGeneration,
      storagePrefix: isEventsView ? storagePrefixFor('', 'events') : storagePrefixFor(storedAs?.group ?? d.group, storedAs?.plural ?? d.plural),
      storageApiVersion: isEventsView ? 'v1' : storedAs?.apiVersion ?? apiVersionOf(d),
      schema,
      schemaIsAuthoritative: false,
      printer: strategy.table ?? builtinPrinters[`${d.group}/${d.kind}`],
      patchSchema: builtinPatchSchema(d.group, d.kind),
      convert: storedAs ? viewConvert(storedAs.convert) : isEventsView || (d.group === '' && d.plural === 'events') ? eventsConvert : rewriteApiVersion,
      subresources: subresourceTable(d, subresources),
    };
  });
}
