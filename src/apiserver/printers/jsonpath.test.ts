import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateJsonPath, formatJsonPathValue, jsonPathValue } from './jsonpath.js';

const obj = {
  metadata: { name: 'web', labels: { app: 'nginx', 'app.kubernetes.io/name': 'web' } },
  spec: {
    replicas: 3,
    containers: [
      { name: 'a', image: 'nginx:1', ports: [{ containerPort: 80 }] },
      { name: 'b', image: 'busybox', ports: [{ containerPort: 8080 }, { containerPort: 9090 }] },
    ],
  },
  status: {
    conditions: [
      { type: 'Available', status: 'False' },
      { type: 'Ready', status: 'True', count: 2 },
    ],
  },
};

describe('jsonPathValue', () => {
  const cases: [string, unknown][] = [
    ['.spec.replicas', 3],
    ['{.spec.replicas}', 3],
    ['spec.replicas', 3],
    ['$.spec.replicas', 3],
    ['.metadata.labels.app', 'nginx'],
    [".metadata.labels['app.kubernetes.io/name']", 'web'],
    ['.metadata.labels.app\\.kubernetes\\.io/name', 'web'],
    ['.metadata.labels.missing', null],
    ['.spec.nothing.deeper', null],
    ['.status.conditions[?(@.type=="Ready")].status', 'True'],
    [".status.conditions[?(@.type == 'Available')].status", 'False'],
    ['.status.conditions[?(@.count > 1)].type', 'Ready'],
    ['.status.conditions[?(@.count)].type', 'Ready'],
    ['.status.conditions[?(@.type=="Gone")].status', null],
    ['.spec.containers[0].image', 'nginx:1'],
    ['.spec.containers[-1].name', 'b'],
    ['.spec.containers[5].name', null],
  ];
  for (const [path, want] of cases) {
    test(path, () => assert.deepEqual(jsonPathValue(obj, path), want));
  }
});

describe('evaluateJsonPath', () => {
  test('wildcards return every match in order', () => {
    assert.deepEqual(evaluateJsonPath(obj, '.spec.containers[*].image'), ['nginx:1', 'busybox']);
    assert.deepEqual(evaluateJsonPath(obj, '{.spec.containers[*].ports[*].containerPort}'), [80, 8080, 9090]);
  });
  test('slices and unions', () => {
    assert.deepEqual(evaluateJsonPath(obj, '.spec.containers[0:1].name'), ['a']);
    assert.deepEqual(evaluateJsonPath(obj, '.spec.containers[0,1].name'), ['a', 'b']);
  });
  test('recursive descent', () => {
    assert.deepEqual(evaluateJsonPath(obj, '..containerPort'), [80, 8080, 9090]);
  });
  test('syntax errors throw', () => {
    assert.throws(() => evaluateJsonPath(obj, '.spec.containers[?(@.name=="a"'), /invalid JSONPath/);
    assert.throws(() => evaluateJsonPath(obj, '.spec[abc]'), /invalid JSONPath/);
  });
});

describe('formatJsonPathValue', () => {
  test('prints like Go fmt %v', () => {
    assert.equal(formatJsonPathValue('x'), 'x');
    assert.equal(formatJsonPathValue(3), '3');
    assert.equal(formatJsonPathValue(0.5), '0.5');
    assert.equal(formatJsonPathValue(0.00001), '1e-05');
    assert.equal(formatJsonPathValue(true), 'true');
    assert.equal(formatJsonPathValue(['a', 'b']), '[a b]');
    assert.equal(formatJsonPathValue({ b: 1, a: 'x' }), 'map[a:x b:1]');
  });
});
