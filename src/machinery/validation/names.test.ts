import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorMessage } from '../errors.js';
import {
  isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPathSegmentName,
  validateAnnotations, validateName, validateObjectMeta,
} from './names.js';

const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('string checks', () => {
  const cases: Array<[string, (s: string) => string[], string, string[]]> = [
    ['subdomain ok', isDNS1123Subdomain, 'example.com', []],
    ['subdomain upper case', isDNS1123Subdomain, 'Example', [SUBDOMAIN_MSG]],
    ['subdomain too long', isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
    ['subdomain trailing dash', isDNS1123Subdomain, 'a-', [SUBDOMAIN_MSG]],
    ['label ok', isDNS1123Label, 'my-name', []],
    ['label with dots', isDNS1123Label, 'a.b', ['must not contain dots']],
    ['label underscore', isDNS1123Label, 'a_b', [LABEL_MSG]],
    ['label too long', isDNS1123Label, 'a'.repeat(64), ['must be no more than 63 characters']],
    ['qualified ok', isQualifiedName, 'app.kubernetes.io/name', []],
    ['qualified plain ok', isQualifiedName, 'My_Name.1', []],
    ['qualified empty prefix', isQualifiedName, '/a', ['prefix part must be non-empty']],
    ['qualified empty name', isQualifiedName, 'a/', ['name part must be non-empty', NAME_PART_MSG]],
    ['qualified bad prefix', isQualifiedName, 'A/b', [`prefix part ${SUBDOMAIN_MSG}`]],
    ['qualified long name', isQualifiedName, 'x'.repeat(64), ['name part must be no more than 63 characters']],
    ['qualified two slashes', isQualifiedName, 'a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
    ['label value empty ok', isValidLabelValue, '', []],
    ['label value bad', isValidLabelValue, 'a b', [VALUE_MSG]],
    ['label value long', isValidLabelValue, 'v'.repeat(64), ['must be no more than 63 characters']],
    ['path segment ok', isValidPathSegmentName, 'Any_Thing:1', []],
    ['path segment dot', isValidPathSegmentName, '..', ["may not be '..'"]],
    ['path segment slash and percent', isValidPathSegmentName, 'a/%', ["may not contain '/'", "may not contain '%'"]],
  ];
  for (const [name, fn, input, want] of cases) test(name, () => assert.deepEqual(fn(input), want));

  test('generateName prefixes may end with a dash', () => {
    assert.deepEqual(validateName('subdomain', 'web-', true), []);
    assert.deepEqual(validateName('label', 'web-', true), []);
    assert.deepEqual(validateName('subdomain', 'web-', false), [SUBDOMAIN_MSG]);
    assert.deepEqual(validateName('path-segment', 'a%', true), ["may not contain '%'"]);
  });
});

describe('validateObjectMeta', () => {
  const messages = (meta: Parameters<typeof validateObjectMeta>[0], namespaced = true, nameValidator: 'subdomain' | 'label' | 'path-segment' = 'subdomain') =>
    validateObjectMeta(meta, { namespaced, nameValidator }).map(fieldErrorMessage);

  test('valid metadata has no errors', () => {
    assert.deepEqual(messages({ name: 'web', namespace: 'default', labels: { 'app.kubernetes.io/name': 'web' }, annotations: { a: 'b' }, finalizers: ['example.com/f'] }), []);
    assert.deepEqual(messages({ name: 'node-1' }, false), []);
  });

  const cases: Array<[string, Parameters<typeof validateObjectMeta>[0], boolean, string[]]> = [
    ['name required', { namespace: 'default' }, true, ['metadata.name: Required value: name or generateName is required']],
    ['bad name', { name: 'Bad_Name', namespace: 'default' }, true, [`metadata.name: Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`]],
    ['namespace required', { name: 'a' }, true, ['metadata.namespace: Required value']],
    ['namespace forbidden', { name: 'a', namespace: 'x' }, false, ['metadata.namespace: Forbidden: not allowed on this type']],
    ['bad namespace', { name: 'a', namespace: 'a.b' }, true, ['metadata.namespace: Invalid value: "a.b": must not contain dots']],
    ['bad generateName', { name: 'a', generateName: 'Web-', namespace: 'd' }, true, [`metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`]],
    ['bad label key and value', { name: 'a', namespace: 'd', labels: { 'a b': 'c d' } }, true, [
      `metadata.labels: Invalid value: "a b": ${NAME_PART_MSG}`,
      `metadata.labels: Invalid value: "c d": ${VALUE_MSG}`,
    ]],
    ['bad annotation key', { name: 'a', namespace: 'd', annotations: { 'a b': 'x' } }, true, [`metadata.annotations: Invalid value: "a b": ${NAME_PART_MSG}`]],
    ['negative generation', { name: 'a', namespace: 'd', generation: -1 }, true, ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    ['bad finalizer', { name: 'a', namespace: 'd', finalizers: ['a/b/c'] }, true, ['metadata.finalizers: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\') with an optional DNS subdomain prefix and \'/\' (e.g. \'example.com/MyName\')']],
    ['orphan and foreground together', { name: 'a', namespace: 'd', finalizers: ['orphan', 'foregroundDeletion'] }, true, ['metadata.finalizers: Invalid value: ["orphan","foregroundDeletion"]: finalizer orphan and foregroundDeletion cannot be both set']],
    ['owner reference fields', { name: 'a', namespace: 'd', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }, true, [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]],
  ];
  for (const [name, meta, namespaced, want] of cases) test(name, () => assert.deepEqual(messages(meta, namespaced), want));

  test('two controller references', () => {
    const refs = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '2', controller: true },
    ];
    const errs = validateObjectMeta({ name: 'p', namespace: 'd', ownerReferences: refs }, { namespaced: true, nameValidator: 'subdomain' });
    assert.equal(errs.length, 1);
    assert.equal(errs[0].field, 'metadata.ownerReferences');
    assert.equal(errs[0].detail, 'Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and ReplicaSet/b');
  });

  test('Event owners are banned', () => {
    const errs = validateObjectMeta({ name: 'p', namespace: 'd', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: '1' }] }, { namespaced: true, nameValidator: 'subdomain' });
    assert.deepEqual(errs.map((e) => e.detail), ['/v1, Kind=Event is disallowed from being an owner']);
  });

  test('label and path-segment name validators', () => {
    assert.deepEqual(messages({ name: 'a.b' }, false, 'label'), ['metadata.name: Invalid value: "a.b": must not contain dots']);
    assert.deepEqual(messages({ name: 'Upper:Case' }, false, 'path-segment'), []);
  });

  test('annotations total size is limited to 256 KiB', () => {
    assert.deepEqual(validateAnnotations({ a: 'x'.repeat(256 * 1024 - 1) }, 'metadata.annotations'), []);
    const errs = validateAnnotations({ a: 'x'.repeat(256 * 1024) }, 'metadata.annotations');
    assert.deepEqual(errs.map(fieldErrorMessage), ['metadata.annotations: Too long: must have at most 262144 bytes']);
  });
});
