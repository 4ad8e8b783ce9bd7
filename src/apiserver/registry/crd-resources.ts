/** Turns a CustomResourceDefinition into the served resources of its versions. */
import type { KObject } from '../../api/meta.js';
import { allVerbs, type ResourceDefinition, type ScaleMapping } from '../../api/resource.js';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { crdPrinter, type AdditionalPrinterColumn } from '../printers/index.js';
import { rewriteApiVersion, type ServedResource } from './served-resource.js';
import { storagePrefixFor } from './keys.js';
import { subresourceTable } from './subresource.js';

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: ScaleMapping };
  additionalPrinterColumns?: AdditionalPrinterColumn[];
}

export interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
  versions: CrdVersion[];
  conversion?: { strategy?: string };
}

export type Converter = (obj: KObject, toApiVersion: string, crd: KObject) => Promise<KObject>;

export function crdResources(crd: KObject, convert?: Converter): ServedResource[] {
  const spec = crd.spec as CrdSpec;
  const storage = spec.versions.find((v) => v.storage) ?? spec.versions[0];
  const names = spec.names;
  return spec.versions.filter((v) => v.served).map((v): ServedResource => {
    const definition: ResourceDefinition = {
      group: spec.group, version: v.name, kind: names.kind, listKind: names.listKind ?? `${names.kind}List`,
      plural: names.plural, singular: names.singular ?? names.kind.toLowerCase(), namespaced: spec.scope === 'Namespaced',
      shortNames: names.shortNames, categories: names.categories, verbs: allVerbs,
      subresources: { status: !!v.subresources?.status, scale: v.subresources?.scale },
    };
    return {
      definition,
      strategy: {},
      tracksGeneration: true,
      storagePrefix: storagePrefixFor(spec.group, names.plural),
      storageApiVersion: `${spec.group}/${storage.name}`,
      schema: v.schema?.openAPIV3Schema,
      schemaIsAuthoritative: true,
      printer: crdPrinter(v.additionalPrinterColumns ?? []),
      convert: convert && spec.conversion?.strategy === 'Webhook' ? (obj, to) => convert(obj, to, crd) : rewriteApiVersion,
      crdName: crd.metadata.name,
      subresources: subresourceTable(definition),
    };
  });
}
