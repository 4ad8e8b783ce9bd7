/**
 * Test support for the converters: YAML manifests, round trips, and the check that a converted
 * object is what the target version's CRD schema accepts (nothing pruned, nothing invalid).
 */
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { KObject } from '../../meta.js';
import { crdOf } from '../define-kind.js';
import { kruiseKinds } from '../index.js';
import { fieldErrorMessage } from '../../../machinery/errors.js';
import { findUnknownFields, validateAgainstSchema, type JSONSchemaProps } from '../../../machinery/schema/index.js';
import { convertKruiseObject } from './index.js';

export function manifest(yaml: string): KObject {
  return parse(yaml) as KObject;
}

/** obj → `via` → obj's own version. */
export function roundTrip(obj: KObject, via: string): KObject {
  return convertKruiseObject(convertKruiseObject(obj, via), String(obj.apiVersion));
}

/** Converters are tested on frozen input, so one that mutates it throws. */
export { deepFreeze } from '../../../machinery/deep-freeze.js';

function schemaFor(obj: KObject): JSONSchemaProps {
  const [group, version] = String(obj.apiVersion).split('/');
  const def = kruiseKinds.find((k) => k.group === group && k.kind === obj.kind);
  assert.ok(def, `no Kruise kind ${obj.kind}.${group}`);
  const crd = crdOf(def) as unknown as { spec: { versions: { name: string; schema: { openAPIV3Schema: JSONSchemaProps } }[] } };
  const v = crd.spec.versions.find((x) => x.name === version);
  assert.ok(v, `${obj.kind} does not serve ${version}`);
  return v.schema.openAPIV3Schema;
}

/** Fields the object's version would prune, and its schema errors. */
export function schemaProblems(obj: KObject): { unknown: string[]; errors: string[] } {
  const schema = schemaFor(obj);
  return { unknown: findUnknownFields(schema, obj), errors: validateAgainstSchema(schema, obj).map(fieldErrorMessage) };
}

export function assertSchemaValid(obj: KObject, context = ''): void {
  assert.deepEqual(schemaProblems(obj), { unknown: [], errors: [] }, `${obj.apiVersion} ${obj.kind} ${context}`);
}
