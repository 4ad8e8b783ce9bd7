/**
 * OpenAPI for the embedded API server: v3 index and group-version documents (what kubectl
 * needs for `apply` validation, strategic merge patches and `explain`) and the inlined schemas
 * of built-in kinds used for unknown-field detection.
 */
export { builtinComponents, builtinSchema, goTypeOf } from './builtin-schemas.js';
export {
  hashDocument,
  openApiV3Document,
  openApiV3Index,
  type OpenApiResource,
  type OpenApiV3DocumentInput,
} from './document.js';
export { crdSchemaName, schemaName } from './schema-names.js';
export type { OpenApiSchema } from './schema-types.js';
export { openApiV2Document } from './v2-document.js';
export { encodeOpenApiV2 } from './v2-proto.js';

/**
 * Content-Type for /openapi/v2 responses, whose body is `encodeOpenApiV2(openApiV2Document(...))`.
 * kubectl asks with `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, but the
 * '@' form is not a valid media type to Go's parser, so the response must use the dotted form.
 */
export const openApiV2ProtobufContentType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
