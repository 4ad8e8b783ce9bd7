import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const namespaces = findBuiltin('', 'namespaces');

describe('namespaces', () => {
  test('create: name label, kubernetes finalizer, Active', () => {
    const { object, errors } = simulateCreate(namespaces, { metadata: { name: 'team-a', labels: { env: 'dev' } } });
    assert.deepEqual(errors, []);
    assert.deepEqual(object.metadata.labels, { env: 'dev', 'kubernetes.io/metadata.name': 'team-a' });
    assert.deepEqual(object.spec, { finalizers: ['kubernetes'] });
    assert.deepEqual(object.status, { phase: 'Active' });
  });

  test('the name label cannot be changed or removed', () => {
    const old = simulateCreate(namespaces, { metadata: { name: 'team-a' } }).object;
    const relabelled = structuredClone(old);
    relabelled.metadata.labels = { 'kubernetes.io/metadata.name': 'other', env: 'x' };
    assert.deepEqual(simulateUpdate(namespaces, old, relabelled).object.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a', env: 'x' });
    const unlabelled = structuredClone(old);
    delete unlabelled.metadata.labels;
    assert.deepEqual(simulateUpdate(namespaces, old, unlabelled).object.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a' });
  });

  test('spec.finalizers only change through the finalize subresource', () => {
    const old = simulateCreate(namespaces, { metadata: { name: 'team-a' } }).object;
    const next = structuredClone(old);
    next.spec = { finalizers: [] };
    assert.deepEqual(simulateUpdate(namespaces, old, next).object.spec, { finalizers: ['kubernetes'] });
  });

  test('finalizer names', () => {
    assert.deepEqual(simulateCreate(namespaces, { metadata: { name: 'a' }, spec: { finalizers: ['custom'] } }).errors,
      ['spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']);
    assert.deepEqual(simulateCreate(namespaces, { metadata: { name: 'a' }, spec: { finalizers: ['example.com/cleanup'] } }).errors, []);
  });

  test('status.phase field selector; no deletecollection verb', () => {
    assert.deepEqual(namespaces.strategy.fieldAttributes!({ metadata: {}, status: { phase: 'Terminating' } }), { 'status.phase': 'Terminating' });
    assert.ok(!namespaces.definition.verbs.includes('deletecollection'));
  });
});
