import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crdPrinter } from './custom-columns.js';

const now = new Date('2024-05-01T12:00:00Z');
const cloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'sample', creationTimestamp: '2024-05-01T11:00:00Z' },
  spec: { replicas: 5, updateStrategy: { paused: false }, template: { spec: { containers: [{ image: 'nginx' }, { image: 'redis' }] } } },
  status: { replicas: 5, readyReplicas: 4, conditions: [{ type: 'Ready', status: 'True' }], ratio: 0.75 },
};

describe('crdPrinter', () => {
  test('NAME then the additional printer columns, typed', () => {
    const p = crdPrinter([
      { name: 'DESIRED', type: 'integer', jsonPath: '.spec.replicas', description: 'desired' },
      { name: 'READY', type: 'integer', jsonPath: '.status.readyReplicas' },
      { name: 'PAUSED', type: 'boolean', jsonPath: '.spec.updateStrategy.paused' },
      { name: 'RATIO', type: 'number', jsonPath: '.status.ratio' },
      { name: 'COND', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'IMAGE', type: 'string', jsonPath: '.spec.template.spec.containers[*].image', priority: 1 },
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'MISSING', type: 'string', jsonPath: '.status.nothing' },
      { name: 'WRONGTYPE', type: 'integer', jsonPath: '.metadata.name' },
    ]);
    assert.deepEqual(p.columns[0], p.columns.find((c) => c.format === 'name'));
    assert.deepEqual(p.columns.map((c) => [c.name, c.type, c.priority]), [
      ['Name', 'string', 0], ['DESIRED', 'integer', 0], ['READY', 'integer', 0], ['PAUSED', 'boolean', 0], ['RATIO', 'number', 0],
      ['COND', 'string', 0], ['IMAGE', 'string', 1], ['AGE', 'date', 0], ['MISSING', 'string', 0], ['WRONGTYPE', 'integer', 0],
    ]);
    assert.deepEqual(p.cells(cloneSet, now), ['sample', 5, 4, false, 0.75, 'True', 'nginx', '60m', null, null]);
  });

  test('no columns: NAME and Age', () => {
    const p = crdPrinter([]);
    assert.deepEqual(p.columns.map((c) => [c.name, c.type]), [['Name', 'string'], ['Age', 'date']]);
    assert.deepEqual(p.cells(cloneSet, now), ['sample', '60m']);
  });

  test('a bad JSONPath prints empty cells instead of failing', () => {
    const p = crdPrinter([{ name: 'X', type: 'string', jsonPath: '.spec[' }]);
    assert.deepEqual(p.cells(cloneSet, now), ['sample', null]);
  });
});
