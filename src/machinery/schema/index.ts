/**
 * The CRD schema engine: validation, pruning and defaulting of custom resources against a CRD
 * version's openAPIV3Schema, plus the structural checks run when a CRD is written.
 *
 * Order on a write (and defaulting again when reading stored objects), as kube-apiserver does:
 *   1. decode the body;
 *   2. pruneUnknownFields: drop undeclared fields (report them for fieldValidation) and nulls of
 *      non-nullable fields without a default;
 *   3. applyDefaults: fill `default:` values where the parent object exists;
 *   4. validateAgainstSchema: schema, embedded-resource and list-type errors (422 Invalid).
 * Defaulting before pruning gives the same result, because defaults must themselves be pruned
 * values of the schema.
 */
export type { JSONSchemaProps, JsonType, ListType, ValidationRule } from './types.js';
export { schemaAt, jsonTypeOf, fieldSchema } from './types.js';
export { validateAgainstSchema } from './validate.js';
export { pruneUnknownFields, findUnknownFields, dropNonNullableNulls } from './prune.js';
export { applyDefaults } from './default.js';
export { checkStructural } from './structural.js';
