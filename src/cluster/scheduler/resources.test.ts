import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allocatableOf, podRequests, DEFAULT_MEMORY_REQUEST } from './resources.js';
import type { Container, PodSpec } from '../../api/core/index.js';

const c = (name: string, requests: Record<string, string>, restartPolicy?: 'Always'): Container =>
  ({ name, resources: { requests }, ...(restartPolicy ? { restartPolicy } : {}) });

describe('podRequests', () => {
  const cases: { name: string; spec: PodSpec; cpu: number; memory: number; scalar?: Record<string, number> }[] = [
    { name: 'no containers', spec: { containers: [] }, cpu: 0, memory: 0 },
    { name: 'containers are summed', spec: { containers: [c('a', { cpu: '100m', memory: '1Mi' }), c('b', { cpu: '0.5', memory: '1Mi' })] }, cpu: 600, memory: 2 * 2 ** 20 },
    { name: 'init container peak wins when larger', spec: { containers: [c('a', { cpu: '100m' })], initContainers: [c('i', { cpu: '2' }), c('j', { cpu: '1' })] }, cpu: 2000, memory: 0 },
    { name: 'init container smaller than the sum', spec: { containers: [c('a', { cpu: '1' }), c('b', { cpu: '1' })], initContainers: [c('i', { cpu: '1500m' })] }, cpu: 2000, memory: 0 },
    { name: 'per resource maximum', spec: { containers: [c('a', { cpu: '1', memory: '1Mi' })], initContainers: [c('i', { cpu: '100m', memory: '8Mi' })] }, cpu: 1000, memory: 8 * 2 ** 20 },
    {
      name: 'sidecars run alongside later init containers and the app',
      spec: { containers: [c('a', { cpu: '1' })], initContainers: [c('side', { cpu: '500m' }, 'Always'), c('i', { cpu: '1200m' })] },
      cpu: 1700, memory: 0,
    },
    { name: 'overhead is added', spec: { containers: [c('a', { cpu: '100m' })], overhead: { cpu: '250m', memory: '120Mi' } }, cpu: 350, memory: 120 * 2 ** 20 },
    { name: 'extended resources', spec: { containers: [c('a', { 'nvidia.com/gpu': '2' })] }, cpu: 0, memory: 0, scalar: { 'nvidia.com/gpu': 2 } },
  ];
  for (const tc of cases) {
    test(tc.name, () => {
      const r = podRequests(tc.spec);
      assert.equal(r.milliCpu, tc.cpu);
      assert.equal(r.memory, tc.memory);
      assert.deepEqual(r.scalar, tc.scalar);
    });
  }

  test('non-zero requests fill in the scoring defaults per container', () => {
    const r = podRequests({ containers: [c('a', { cpu: '1' }), { name: 'b' }] }, true);
    assert.equal(r.milliCpu, 1100);
    assert.equal(r.memory, 2 * DEFAULT_MEMORY_REQUEST);
  });
});

describe('allocatableOf', () => {
  test('parses cpu, memory, pods and extended resources', () => {
    const a = allocatableOf({ cpu: '3500m', memory: '1Gi', pods: '110', 'ephemeral-storage': '10Gi', 'example.com/dev': '4' });
    assert.deepEqual(a, { milliCpu: 3500, memory: 2 ** 30, ephemeralStorage: 10 * 2 ** 30, pods: 110, scalar: { 'example.com/dev': 4 } });
  });
  test('missing allocatable means nothing fits', () => {
    assert.deepEqual(allocatableOf(undefined), { milliCpu: 0, memory: 0, ephemeralStorage: 0, scalar: undefined, pods: 0 });
  });
});
