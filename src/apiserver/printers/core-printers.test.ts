import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TablePrinter } from '../../api/resource.js';
import { builtinPrinters, printerFor } from './index.js';
import { defaultPrinter } from './table.js';

const now = new Date('2024-05-01T12:00:00Z');
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, creationTimestamp: '2024-04-28T08:00:00Z', ...extra });

function row(p: TablePrinter, obj: Record<string, unknown>): Record<string, unknown> {
  const cells = p.cells(obj, now);
  assert.equal(cells.length, p.columns.length, 'one cell per column');
  return Object.fromEntries(p.columns.map((c, i) => [c.name, cells[i]]));
}

describe('core printers', () => {
  test('every built-in printer has a name-formatted Name column', () => {
    for (const [key, p] of Object.entries(builtinPrinters)) {
      const name = p.columns.find((c) => c.name === 'Name');
      assert.equal(name?.format, 'name', key);
    }
  });

  test('node', () => {
    const node = {
      metadata: meta('n1', { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' } }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '172.18.0.2' }],
        nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'fake://1' },
      },
    };
    assert.deepEqual(row(printerFor('', 'Node'), node), {
      Name: 'n1', Status: 'Ready,SchedulingDisabled', Roles: 'control-plane,worker', Age: '3d4h', Version: 'v1.32.0',
      'Internal-IP': '172.18.0.2', 'External-IP': '<none>', 'OS-Image': 'Debian', 'Kernel-Version': '6.1', 'Container-Runtime': 'fake://1',
    });
  });

  test('service', () => {
    const svc = {
      metadata: meta('web'),
      spec: { type: 'NodePort', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { app: 'web' } },
    };
    assert.deepEqual(row(printerFor('', 'Service'), svc), {
      Name: 'web', Type: 'NodePort', 'Cluster-IP': '10.96.0.10', 'External-IP': '<none>', 'Port(s)': '80:30080/TCP,53/UDP', Age: '3d4h', Selector: 'app=web',
    });
    const lb = { metadata: meta('lb'), spec: { type: 'LoadBalancer', ports: [] }, status: {} };
    assert.equal(row(printerFor('', 'Service'), lb)['External-IP'], '<pending>');
  });

  test('configmap, secret, namespace, endpoints', () => {
    assert.equal(row(printerFor('', 'ConfigMap'), { metadata: meta('c'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }).Data, 3);
    assert.deepEqual(row(printerFor('', 'Secret'), { metadata: meta('s'), type: 'Opaque', data: { a: 'eA==' } }), { Name: 's', Type: 'Opaque', Data: 1, Age: '3d4h' });
    assert.equal(row(printerFor('', 'Namespace'), { metadata: meta('ns'), status: { phase: 'Active' } }).Status, 'Active');
    const ep = { metadata: meta('e'), subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: '10.0.0.3' }, { ip: '10.0.0.4' }], ports: [{ port: 80 }] }] };
    assert.equal(row(printerFor('', 'Endpoints'), ep).Endpoints, '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more...');
  });

  test('event', () => {
    const ev = {
      metadata: meta('web.17a'),
      involvedObject: { kind: 'Pod', name: 'web-0', fieldPath: 'spec.containers{app}' },
      type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container\n',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2024-05-01T11:50:00Z', lastTimestamp: '2024-05-01T11:59:00Z', count: 7,
    };
    assert.deepEqual(row(printerFor('', 'Event'), ev), {
      'Last Seen': '60s', Type: 'Warning', Reason: 'BackOff', Object: 'pod/web-0', Subobject: 'spec.containers{app}',
      Source: 'kubelet, n1', Message: 'Back-off restarting failed container', 'First Seen': '10m', Count: 7, Name: 'web.17a',
    });
  });

  test('pvc, storage class, rbac bindings, pdb', () => {
    const pvc = { metadata: meta('data'), spec: { volumeName: 'pv-1', storageClassName: 'standard' }, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } };
    const r = row(printerFor('', 'PersistentVolumeClaim'), pvc);
    assert.deepEqual([r.Status, r.Volume, r.Capacity, r['Access Modes'], r.StorageClass, r.VolumeAttributesClass], ['Bound', 'pv-1', '1Gi', 'RWO', 'standard', '<unset>']);
    const sc = { metadata: meta('standard', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'rancher.io/local-path' };
    assert.equal(row(printerFor('storage.k8s.io', 'StorageClass'), sc).Name, 'standard (default)');
    const rb = { metadata: meta('rb'), roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }] };
    const b = row(printerFor('rbac.authorization.k8s.io', 'RoleBinding'), rb);
    assert.deepEqual([b.Role, b.Users, b.Groups, b.ServiceAccounts], ['ClusterRole/view', 'alice', '', 'ns:sa']);
    const pdb = { metadata: meta('p'), spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } };
    const p = row(printerFor('policy', 'PodDisruptionBudget'), pdb);
    assert.deepEqual([p['Min Available'], p['Max Unavailable'], p['Allowed Disruptions']], ['50%', 'N/A', 1]);
  });

  test('kinds without a printer get NAME and CREATED AT', () => {
    assert.equal(printerFor('rbac.authorization.k8s.io', 'ClusterRole'), defaultPrinter);
    assert.equal(printerFor('example.com', 'Widget'), defaultPrinter);
    assert.deepEqual(row(defaultPrinter, { metadata: meta('admin') }), { Name: 'admin', 'Created At': '2024-04-28T08:00:00Z' });
  });
});
