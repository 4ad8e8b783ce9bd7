/**
 * `components.schemas` entries for a custom resource: the CRD version's openAPIV3Schema with
 * apiVersion/kind/metadata filled in as the apiextensions-apiserver publishes them, its list
 * kind, and the ObjectMeta/ListMeta components they reference.
 */
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { addClassComponents } from './builtin-schemas.js';
import { crdSchemaName, specialNames } from './schema-names.js';
import type { OpenApiSchema } from './schema-types.js';

const apiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized ' +
  'schemas to the latest internal value, and may reject unrecognized values. More info: ' +
  'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the ' +
  'endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ' +
  'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';
const metadataDescription =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const typeMetaProperties = (): Record<string, OpenApiSchema> => ({
  apiVersion: { type: 'string', description: apiVersionDescription },
  kind: { type: 'string', description: kindDescription },
});

function refTo(name: string, description: string): OpenApiSchema {
  return { allOf: [{ $ref: `#/components/schemas/${name}` }], description };
}

/** Adds the schemas of a CRD kind; returns the names of the kind and list components. */
export function addCrdComponents(
  gvk: { group: string; version: string; kind: string },
  schema: JSONSchemaProps | undefined,
  schemas: Record<string, OpenApiSchema>,
): { name: string; listName: string } {
  const { group, version, kind } = gvk;
  const name = crdSchemaName(group, version, kind);
  const listName = `${name}List`;
  const root = structuredClone((schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as OpenApiSchema);
  root.type ??= 'object';
  root.properties = {
    ...root.properties,
    ...typeMetaProperties(),
    metadata: refTo(specialNames.ObjectMeta, metadataDescription),
  };
  root['x-kubernetes-group-version-kind'] = [{ group, kind, version }];
  schemas[name] = root;
  schemas[listName] = {
    type: 'object',
    description: `${kind}List is a list of ${kind}`,
    properties: {
      ...typeMetaProperties(),
      items: { type: 'array', description: `List of ${kind.toLowerCase()}s.`, items: { $ref: `#/components/schemas/${name}` } },
      metadata: refTo(specialNames.ListMeta, 'Standard list metadata.'),
    },
    required: ['items'],
    'x-kubernetes-group-version-kind': [{ group, kind: `${kind}List`, version }],
  };
  addClassComponents('V1ObjectMeta', group, schemas);
  addClassComponents('V1ListMeta', group, schemas);
  return { name, listName };
}
