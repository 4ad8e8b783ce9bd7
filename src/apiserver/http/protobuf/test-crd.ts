/**
 * A CustomResourceDefinition in protobuf as client-go writes it (apiextensions-apiserver's generated
 * marshalers: every non-pointer field present, pointers only when set, map keys sorted), for the
 * decoder's unit test and the end-to-end test that sends it to the server.
 */
import { envelope, objectMeta, pb } from './test-encoder.js';

interface Schema {
  type?: string;
  description?: string;
  properties?: Record<string, Buffer>;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** JSONSchemaPropsOrArray: one schema. */
  items?: Buffer;
  /** JSONSchemaPropsOrBool: `true`/`false` or a schema. */
  additionalProperties?: boolean | Buffer;
  preserveUnknownFields?: boolean;
  intOrString?: boolean;
}

const json = (field: number, value: unknown) => pb.msg(field, pb.bytes(1, Buffer.from(JSON.stringify(value))));

/** JSONSchemaProps body (without its field tag). */
export function schemaProps(s: Schema): Buffer {
  const parts = [pb.str(1, ''), pb.str(2, ''), pb.str(4, s.description ?? ''), pb.str(5, s.type ?? ''), pb.str(6, ''),
    pb.str(7, '')];
  if (s.default !== undefined) parts.push(json(8, s.default));
  if (s.maximum !== undefined) parts.push(pb.double(9, s.maximum));
  parts.push(pb.bool(10, false));
  if (s.minimum !== undefined) parts.push(pb.double(11, s.minimum));
  parts.push(pb.bool(12, false));
  if (s.maxLength !== undefined) parts.push(pb.int(13, s.maxLength));
  parts.push(pb.str(15, ''), pb.bool(18, false));
  for (const v of s.enum ?? []) parts.push(json(20, v));
  for (const r of s.required ?? []) parts.push(pb.str(23, r));
  if (s.items) parts.push(pb.msg(24, pb.bytes(1, s.items)));
  for (const name of Object.keys(s.properties ?? {}).sort()) parts.push(pb.msg(29, pb.str(1, name), pb.bytes(2, s.properties![name])));
  if (s.additionalProperties !== undefined) {
    const schema = typeof s.additionalProperties === 'boolean' ? [] : [pb.bytes(2, s.additionalProperties)];
    parts.push(pb.msg(30, pb.bool(1, s.additionalProperties !== false), ...schema));
  }
  parts.push(pb.bool(37, false));
  if (s.preserveUnknownFields !== undefined) parts.push(pb.bool(38, s.preserveUnknownFields));
  parts.push(pb.bool(39, false), pb.bool(40, s.intOrString ?? false));
  return Buffer.concat(parts);
}

/** The Widget CRD of group example.com: its schema uses every union, a double, enum, default and maps. */
export function widgetCrdBody(options: { resourceVersion?: string; description?: string } = {}): Buffer {
  const spec = schemaProps({
    type: 'object', required: ['size'],
    properties: {
      size: schemaProps({ type: 'integer', minimum: 1, maximum: 10.5, default: 3 }),
      color: schemaProps({ type: 'string', enum: ['red', 'blue'], maxLength: 8, description: options.description }),
      tags: schemaProps({ type: 'array', items: schemaProps({ type: 'string' }) }),
      labels: schemaProps({ type: 'object', additionalProperties: schemaProps({ type: 'string' }) }),
      port: schemaProps({ intOrString: true }),
      extra: schemaProps({ type: 'object', preserveUnknownFields: true }),
    },
  });
  const root = schemaProps({ type: 'object', properties: { spec, status: schemaProps({ type: 'object', additionalProperties: true }) } });
  const names = pb.msg(3, pb.str(1, 'widgets'), pb.str(2, 'widget'), pb.str(3, 'wg'), pb.str(4, 'Widget'), pb.str(5, 'WidgetList'));
  const version = pb.msg(7, pb.str(1, 'v1'), pb.bool(2, true), pb.bool(3, true), pb.msg(4, pb.bytes(1, root)),
    pb.msg(5, pb.msg(1)), pb.bool(7, false));
  const crdSpec = pb.msg(2, pb.str(1, 'example.com'), names, pb.str(4, 'Namespaced'), version, pb.bool(10, false));
  const status = pb.msg(3, pb.msg(2, pb.str(1, ''), pb.str(2, ''), pb.str(4, ''), pb.str(5, '')));
  const meta = objectMeta(1, { name: 'widgets.example.com' });
  const withRv = options.resourceVersion ? patchResourceVersion(options.resourceVersion) : meta;
  return envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', withRv, crdSpec, status);
}

/** ObjectMeta with name and resourceVersion (field 6), as a client-go Update sends it. */
function patchResourceVersion(rv: string): Buffer {
  return pb.msg(1, pb.str(1, 'widgets.example.com'), pb.str(2, ''), pb.str(3, ''), pb.str(4, ''), pb.str(5, ''),
    pb.str(6, rv), pb.int(7, 0), pb.msg(8));
}
