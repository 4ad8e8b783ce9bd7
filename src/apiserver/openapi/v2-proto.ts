/**
 * Encodes a Swagger 2.0 document as gnostic's `openapi.v2.Document` protobuf, the only form of
 * /openapi/v2 kubectl understands (Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf).
 * Field numbers follow google/gnostic openapiv2/OpenAPIv2.proto. Vendor extensions and
 * default/enum/example values travel as YAML text; JSON is valid YAML, so they are JSON.
 */
import { ProtoWriter } from './proto-writer.js';

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const entries = (v: unknown): [string, unknown][] => (typeof v === 'object' && v !== null ? Object.entries(v) : []);

/** Any{yaml = 2}. */
function any(w: ProtoWriter, field: number, value: unknown): void {
  if (value !== undefined) w.message(field, (a) => a.string(2, JSON.stringify(value), true));
}

/** repeated NamedAny vendor_extension for every `x-` key. */
function extensions(w: ProtoWriter, field: number, obj: Json): void {
  for (const [name, value] of entries(obj)) {
    if (name.startsWith('x-')) w.message(field, (n) => { n.string(1, name); any(n, 2, value); });
  }
}

function schema(w: ProtoWriter, s: Json): void {
  w.string(1, str(s.$ref)).string(2, str(s.format)).string(3, str(s.title)).string(4, str(s.description));
  any(w, 5, s.default);
  w.double(6, num(s.multipleOf)).double(7, num(s.maximum)).bool(8, bool(s.exclusiveMaximum));
  w.double(9, num(s.minimum)).bool(10, bool(s.exclusiveMinimum));
  w.int64(11, num(s.maxLength)).int64(12, num(s.minLength)).string(13, str(s.pattern));
  w.int64(14, num(s.maxItems)).int64(15, num(s.minItems)).bool(16, bool(s.uniqueItems));
  w.int64(17, num(s.maxProperties)).int64(18, num(s.minProperties));
  w.strings(19, Array.isArray(s.required) ? s.required.map(String) : undefined);
  for (const e of Array.isArray(s.enum) ? s.enum : []) any(w, 20, e);
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') w.message(21, (a) => a.bool(2, ap, true));
  else if (typeof ap === 'object' && ap !== null) w.message(21, (a) => a.message(1, (x) => schema(x, ap as Json)));
  if (typeof s.type === 'string') w.message(22, (t) => t.string(1, s.type as string, true));
  if (typeof s.items === 'object' && s.items !== null) w.message(23, (i) => i.message(1, (x) => schema(x, s.items as Json)));
  if (s.properties !== undefined) {
    w.message(25, (p) => {
      for (const [name, sub] of entries(s.properties)) p.message(1, (n) => n.string(1, name, true).message(2, (x) => schema(x, sub as Json)));
    });
  }
  any(w, 30, s.example);
  extensions(w, 31, s);
}

/** ParametersItem{parameter = 1}: body, query or path parameter. */
function parameter(w: ProtoWriter, p: Json): void {
  w.message(1, (item) => {
    if (p.in === 'body') {
      item.message(1, (b) => {
        b.string(1, str(p.description)).string(2, str(p.name)).string(3, 'body').bool(4, bool(p.required));
        b.message(5, (x) => schema(x, (p.schema ?? {}) as Json));
      });
      return;
    }
    item.message(2, (nb) => {
      const isPath = p.in === 'path';
      nb.message(isPath ? 4 : 3, (q) => {
        q.bool(1, bool(p.required)).string(2, str(p.in)).string(3, str(p.description)).string(4, str(p.name));
        q.string(isPath ? 5 : 6, str(p.type)).bool(isPath ? 19 : 20, bool(p.uniqueItems));
      });
    });
  });
}

function operation(w: ProtoWriter, op: Json): void {
  w.strings(1, op.tags as string[] | undefined).string(3, str(op.description)).string(5, str(op.operationId));
  w.strings(6, op.produces as string[] | undefined).strings(7, op.consumes as string[] | undefined);
  for (const p of (op.parameters ?? []) as Json[]) w.message(8, (x) => parameter(x, p));
  w.message(9, (rs) => {
    for (const [code, r] of entries(op.responses)) {
      const resp = r as Json;
      rs.message(1, (n) => n.string(1, code, true).message(2, (v) => v.message(1, (x) => {
        x.string(1, str(resp.description), true);
        if (resp.schema) x.message(2, (si) => si.message(1, (s) => schema(s, resp.schema as Json)));
      })));
    }
  });
  extensions(w, 13, op);
}

const methodFields: [string, number][] = [['get', 2], ['put', 3], ['post', 4], ['delete', 5], ['patch', 8]];

function pathItem(w: ProtoWriter, item: Json): void {
  for (const [m, field] of methodFields) if (item[m]) w.message(field, (x) => operation(x, item[m] as Json));
  for (const p of (item.parameters ?? []) as Json[]) w.message(9, (x) => parameter(x, p));
}

/** The protobuf bytes of a Swagger 2.0 document (see openApiV2Document). */
export function encodeOpenApiV2(doc: Json): Buffer {
  const w = new ProtoWriter();
  w.string(1, str(doc.swagger));
  const info = (doc.info ?? {}) as Json;
  w.message(2, (i) => i.string(1, str(info.title)).string(2, str(info.version)));
  w.message(8, (ps) => {
    for (const [path, item] of entries(doc.paths)) ps.message(2, (n) => n.string(1, path, true).message(2, (x) => pathItem(x, item as Json)));
  });
  w.message(9, (ds) => {
    for (const [name, s] of entries(doc.definitions)) ds.message(1, (n) => n.string(1, name, true).message(2, (x) => schema(x, s as Json)));
  });
  extensions(w, 16, doc);
  return w.finish();
}
