/**
 * The single Swagger 2.0 document of /openapi/v2, derived from the per-group-version v3
 * documents: definitions from their components, operations with body parameters, consumes and
 * produces. kubectl 1.27/1.28 need it (as protobuf) for `apply` validation and `explain`.
 */
import { openApiV3Document, type OpenApiV3DocumentInput } from './document.js';
import { toV2Schema } from './v2-schema.js';

type Json = Record<string, unknown>;

const methods = ['get', 'put', 'post', 'delete', 'patch'] as const;

function v2Parameter(p: Json): Json {
  const schema = (p.schema ?? {}) as Json;
  const out: Json = { name: p.name, in: p.in, description: p.description, type: schema.type };
  if (schema.uniqueItems) out.uniqueItems = true;
  if (p.required) out.required = true;
  return out;
}

function firstContentSchema(content: unknown): Json | undefined {
  const media = Object.values((content ?? {}) as Record<string, { schema?: Json }>);
  return media[0]?.schema;
}

function v2Responses(responses: Json): Json {
  const out: Json = {};
  for (const [code, r] of Object.entries(responses as Record<string, Json>)) {
    const schema = firstContentSchema(r.content);
    out[code] = schema ? { description: r.description, schema: toV2Schema(schema) } : { description: r.description };
  }
  return out;
}

function v2Operation(op: Json): Json {
  const parameters = ((op.parameters ?? []) as Json[]).map(v2Parameter);
  const body = op.requestBody as Json | undefined;
  const out: Json = {
    tags: op.tags,
    description: op.description,
    operationId: op.operationId,
    produces: ['application/json', 'application/yaml'],
    responses: v2Responses(op.responses as Json),
  };
  if (body) {
    out.consumes = Object.keys((body.content ?? {}) as Json);
    parameters.unshift({ name: 'body', in: 'body', required: body.required === true, schema: toV2Schema(firstContentSchema(body.content)) });
  } else {
    out.consumes = ['*/*'];
  }
  out.parameters = parameters;
  for (const [key, value] of Object.entries(op)) if (key.startsWith('x-')) out[key] = value;
  return out;
}

function v2PathItem(item: Json): Json {
  const out: Json = { parameters: ((item.parameters ?? []) as Json[]).map(v2Parameter) };
  for (const m of methods) if (item[m]) out[m] = v2Operation(item[m] as Json);
  return out;
}

/** One Swagger 2.0 document covering every served group-version. */
export function openApiV2Document(groupVersions: OpenApiV3DocumentInput[]): Json {
  const paths: Json = {};
  const definitions: Json = {};
  for (const input of groupVersions) {
    const v3 = openApiV3Document(input);
    for (const [path, item] of Object.entries(v3.paths as Json)) paths[path] = v2PathItem(item as Json);
    const schemas = (v3.components as { schemas: Json }).schemas;
    for (const [name, schema] of Object.entries(schemas)) definitions[name] ??= toV2Schema(schema);
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    definitions,
    securityDefinitions: { BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
    security: [{ BearerToken: [] }],
  };
}

