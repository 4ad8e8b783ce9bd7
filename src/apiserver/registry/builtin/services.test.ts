import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { createRandomAllocator, ipInServiceCIDR } from './service-allocation.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

/** A deterministic allocator: a fixed sequence of random numbers. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

const services = findBuiltin('', 'services', { serviceAllocator: createRandomAllocator(sequence(0.25, 0.5, 0.75)) });
const svc = (spec: Record<string, unknown>, name = 'web', namespace = 'default'): KObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec,
});
const port80 = { ports: [{ port: 80 }], selector: { app: 'web' } };
type Spec = Record<string, unknown> & { ports: Record<string, unknown>[] };

describe('service defaults and allocation', () => {
  test('a ClusterIP service', () => {
    const { object, errors } = simulateCreate(services, svc(port80));
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.ok(ipInServiceCIDR(spec.clusterIP as string), String(spec.clusterIP));
    assert.deepEqual(spec, {
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' },
      sessionAffinity: 'None', type: 'ClusterIP', internalTrafficPolicy: 'Cluster',
      clusterIP: spec.clusterIP, clusterIPs: [spec.clusterIP], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'],
    });
    assert.deepEqual(object.status, { loadBalancer: {} });
  });

  test('default/kubernetes gets the first address', () => {
    const spec = simulateCreate(services, svc({ ports: [{ name: 'https', port: 443, targetPort: 6443 }] }, 'kubernetes')).object.spec as Spec;
    assert.equal(spec.clusterIP, '10.96.0.1');
  });

  test('a user-chosen address inside the range is kept; outside is refused', () => {
    assert.equal((simulateCreate(services, svc({ ...port80, clusterIP: '10.96.5.5' })).object.spec as Spec).clusterIP, '10.96.5.5');
    assert.deepEqual(simulateCreate(services, svc({ ...port80, clusterIP: '192.168.0.1' })).errors, [
      'spec.clusterIPs: Invalid value: ["192.168.0.1"]: failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    ]);
  });

  test('headless services', () => {
    const selected = simulateCreate(services, svc({ ...port80, clusterIP: 'None' })).object.spec as Spec;
    assert.deepEqual([selected.clusterIPs, selected.ipFamilyPolicy, selected.ipFamilies], [['None'], 'SingleStack', ['IPv4']]);
    const bare = simulateCreate(services, svc({ clusterIP: 'None' })).object.spec as Spec;
    assert.equal(bare.ipFamilyPolicy, 'RequireDualStack');
  });

  test('NodePort services get node ports and an external traffic policy', () => {
    const spec = simulateCreate(services, svc({ ...port80, type: 'NodePort' })).object.spec as Spec;
    const nodePort = spec.ports[0].nodePort as number;
    assert.ok(nodePort >= 30000 && nodePort <= 32767, String(nodePort));
    assert.equal(spec.externalTrafficPolicy, 'Cluster');
  });

  test('ExternalName services get no address', () => {
    const { object, errors } = simulateCreate(services, svc({ type: 'ExternalName', externalName: 'example.com' }));
    assert.deepEqual(errors, []);
    assert.equal((object.spec as Spec).clusterIP, undefined);
  });
});

describe('service updates', () => {
  test('an apply without clusterIP or nodePort keeps the allocated values', () => {
    const old = simulateCreate(services, svc({ ...port80, type: 'NodePort' })).object;
    const oldSpec = old.spec as Spec;
    const { object, errors } = simulateUpdate(services, old, svc({ ...port80, type: 'NodePort' }));
    assert.deepEqual(errors, []);
    const spec = object.spec as Spec;
    assert.equal(spec.clusterIP, oldSpec.clusterIP);
    assert.deepEqual(spec.clusterIPs, oldSpec.clusterIPs);
    assert.equal(spec.ports[0].nodePort, oldSpec.ports[0].nodePort);
    assert.deepEqual(spec.ipFamilies, ['IPv4']);
  });

  test('the primary cluster IP may not change', () => {
    const old = simulateCreate(services, svc(port80)).object;
    assert.deepEqual(simulateUpdate(services, old, svc({ ...port80, clusterIP: '10.96.9.9' })).errors,
      ['spec.clusterIPs[0]: Invalid value: ["10.96.9.9"]: may not change once set']);
    assert.deepEqual(simulateUpdate(services, old, svc({ ...port80, clusterIP: 'None' })).errors,
      ['spec.clusterIPs[0]: Invalid value: ["None"]: may not change once set']);
  });

  test('switching ExternalName to ClusterIP allocates', () => {
    const old = simulateCreate(services, svc({ type: 'ExternalName', externalName: 'example.com' })).object;
    const { object, errors } = simulateUpdate(services, old, svc(port80));
    assert.deepEqual(errors, []);
    assert.ok(ipInServiceCIDR((object.spec as Spec).clusterIP as string));
  });
});

describe('service validation', () => {
  const cases: [string, Record<string, unknown>, string[]][] = [
    ['type enum', { ...port80, type: 'Ingress' }, ['spec.type: Unsupported value: "Ingress": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['ports required', { selector: { app: 'web' } }, ['spec.ports: Required value']],
    ['port names required with several ports', { ports: [{ port: 80 }, { port: 443 }] }, ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    ['port range', { ports: [{ port: 70000 }] }, ['spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    ['nodePort on ClusterIP', { ports: [{ port: 80, nodePort: 30080 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['externalTrafficPolicy on ClusterIP', { ...port80, externalTrafficPolicy: 'Local' },
      ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']],
    ['ExternalName needs a name', { type: 'ExternalName' }, ['spec.externalName: Required value']],
  ];
  for (const [name, spec, expected] of cases) {
    test(name, () => assert.deepEqual(simulateCreate(services, svc(spec)).errors, expected));
  }
});
