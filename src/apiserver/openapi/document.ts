/**
 * OpenAPI v3 as served under /openapi/v3: the index of group-version documents with their
 * content hashes, and one document per group-version with paths and component schemas.
 */
import { createHash } from 'node:crypto';
import type { ResourceDefinition } from '../../api/resource.js';
import type { JSONSchemaProps } from '../../machinery/schema/types.js';
import { addClassComponents, builtinComponents } from './builtin-schemas.js';
import { addCrdComponents } from './crd-schemas.js';
import { classForKind } from './models.js';
import { resourcePaths, type OperationContext } from './paths.js';
import { specialNames } from './schema-names.js';
import type { OpenApiSchema } from './schema-types.js';
import { compareStrings } from '../../machinery/order.js';

export interface OpenApiResource {
  definition: ResourceDefinition;
  /** A CRD version's openAPIV3Schema; ignored for built-ins, whose schemas come from client models. */
  schema?: object;
  /** Built-in kinds accept strategic merge patches; defaults to "a built-in group and a known model". */
  builtin?: boolean;
}

export interface OpenApiV3DocumentInput {
  groupVersion: string;
  resources: OpenApiResource[];
}

const kubernetesVersion = 'v1.32.0';
const basePatchTypes = ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json'];
const builtinPatchTypes = [...basePatchTypes, 'application/strategic-merge-patch+json'];

/** CRD groups must contain a dot and only approved ones end in .k8s.io; built-in models decide the rest. */
function isBuiltin(r: OpenApiResource): boolean {
  if (r.builtin !== undefined) return r.builtin;
  const { group, version, kind } = r.definition;
  const builtinGroup = !group.includes('.') || (group.endsWith('.k8s.io') && !group.endsWith('.x-k8s.io'));
  return builtinGroup && classForKind(group, version, kind) !== undefined;
}

function pascalGroup(group: string): string {
  if (group === '') return 'Core';
  return group
    .replace(/\.k8s\.io$/, '')
    .split(/[.-]/)
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join('');
}

function contextFor(r: OpenApiResource, builtin: boolean, schemas: Record<string, OpenApiSchema>): OperationContext {
  const d = r.definition;
  const gvk = { group: d.group, version: d.version, kind: d.kind };
  const names = builtin ? builtinComponents(d.group, d.version, d.kind, schemas) : undefined;
  const { name, listName } = names
    ? { name: names.name, listName: names.name + 'List' }
    : addCrdComponents(gvk, r.schema as JSONSchemaProps | undefined, schemas);
  const groupId = pascalGroup(d.group);
  const versionId = d.version.charAt(0).toUpperCase() + d.version.slice(1);
  return {
    gvk,
    schema: name,
    listSchema: schemas[listName] ? listName : name,
    idBase: `${groupId}${versionId}${d.namespaced ? 'Namespaced' : ''}${d.kind}`,
    tag: `${groupId.charAt(0).toLowerCase()}${groupId.slice(1)}_${d.version}`,
    patchTypes: builtin ? builtinPatchTypes : basePatchTypes,
  };
}

function scaleContext(ctx: OperationContext, schemas: Record<string, OpenApiSchema>): OperationContext | undefined {
  const scale = builtinComponents('autoscaling', 'v1', 'Scale', schemas);
  if (!scale) return undefined;
  return { ...ctx, gvk: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, schema: scale.name, listSchema: scale.name, patchTypes: builtinPatchTypes };
}

/** One group-version document: paths with GVK-tagged operations and the schemas they use. */
export function openApiV3Document(input: OpenApiV3DocumentInput): Record<string, unknown> {
  const schemas: Record<string, OpenApiSchema> = {};
  const group = input.groupVersion.includes('/') ? input.groupVersion.split('/')[0] : '';
  addClassComponents('V1Status', group, schemas);
  addClassComponents('V1DeleteOptions', group, schemas);
  schemas[specialNames.Patch] = {
    type: 'object',
    description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
  };
  let paths: Record<string, unknown> = {};
  const resources = [...input.resources].sort((a, b) => compareStrings(a.definition.plural, b.definition.plural));
  for (const r of resources) {
    const ctx = contextFor(r, isBuiltin(r), schemas);
    const scale = r.definition.subresources?.scale ? scaleContext(ctx, schemas) : undefined;
    paths = { ...paths, ...resourcePaths(r.definition, ctx, scale) };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: kubernetesVersion },
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' },
      },
    },
    security: [{ BearerToken: [] }],
  };
}

/** The `/openapi/v3` index: where each group-version document lives, pinned by its hash. */
export function openApiV3Index(groupVersions: { path: string; hash: string }[]): { paths: Record<string, { serverRelativeURL: string }> } {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { path, hash } of groupVersions) paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
  return { paths };
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== 'object' || value === null) return value;
  const rec = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(rec)
      .filter((k) => rec[k] !== undefined)
      .sort()
      .map((k) => [k, canonical(rec[k])]),
  );
}

/** Upper-case hex SHA-256 of the document's canonical JSON (keys sorted), stable across key order. */
export function hashDocument(doc: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(doc))).digest('hex').toUpperCase();
}
