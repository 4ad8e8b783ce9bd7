/**
 * Printers for Node, Service and Endpoints: the core/v1 kinds whose cells summarise addresses.
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { arrayAt, asArray, asNumber, asObject, asString, createdAt, nameOf, objectAt, stringAt, valueAt } from './fields.js';
import { formatLabels } from './format.js';

function nodeStatus(node: unknown): string {
  const ready = arrayAt(node, 'status', 'conditions').map(asObject).find((c) => c.type === 'Ready');
  const status = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (valueAt(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

/** Roles from `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted. */
function nodeRoles(node: unknown): string {
  const roles = new Set<string>();
  const labels = objectAt(node, 'metadata', 'labels');
  for (const [key, value] of Object.entries(labels)) {
    const prefix = 'node-role.kubernetes.io/';
    if (key.startsWith(prefix) && key.length > prefix.length) roles.add(key.slice(prefix.length));
    else if (key === 'kubernetes.io/role' && asString(value) !== '') roles.add(asString(value));
  }
  return roles.size === 0 ? '<none>' : [...roles].sort().join(',');
}

function nodeAddress(node: unknown, type: string): string {
  const a = arrayAt(node, 'status', 'addresses').map(asObject).find((x) => x.type === type);
  return a ? asString(a.address) : '<none>';
}

export const nodePrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Status', 'string', 'The status of the node'),
    col('Roles', 'string', 'The roles of the node'),
    ageColumn(),
    col('Version', 'string', 'Kubelet Version reported by the node.'),
    wide('Internal-IP', 'string', 'List of addresses reachable to the node.'),
    wide('External-IP', 'string', 'List of addresses reachable to the node.'),
    wide('OS-Image', 'string', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).'),
    wide('Kernel-Version', 'string', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
    wide('Container-Runtime', 'string', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).'),
  ],
  (node, now) => {
    const info = objectAt(node, 'status', 'nodeInfo');
    return [
      nameOf(node),
      nodeStatus(node),
      nodeRoles(node),
      ageSince(createdAt(node), now),
      asString(info.kubeletVersion),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      asString(info.osImage) || '<unknown>',
      asString(info.kernelVersion) || '<unknown>',
      asString(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
);

function externalIP(svc: unknown): string {
  const spec = objectAt(svc, 'spec');
  const external = asArray(spec.externalIPs).map(asString);
  switch (asString(spec.type) || 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = arrayAt(svc, 'status', 'loadBalancer', 'ingress').map(asObject);
      const lb = [...new Set(ingress.map((i) => asString(i.ip) || asString(i.hostname)).filter((x) => x))].sort();
      const all = [...lb, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return asString(spec.externalName);
    default:
      return '<unknown>';
  }
}

function servicePorts(svc: unknown): string {
  const ports = arrayAt(svc, 'spec', 'ports').map(asObject);
  const text = ports.map((p) => {
    const protocol = asString(p.protocol) || 'TCP';
    const nodePort = asNumber(p.nodePort);
    return nodePort > 0 ? `${asNumber(p.port)}:${nodePort}/${protocol}` : `${asNumber(p.port)}/${protocol}`;
  });
  return text.length > 0 ? text.join(',') : '<none>';
}

export const servicePrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Type', 'string', 'type determines how the Service is exposed.'),
    col('Cluster-IP', 'string', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    col('External-IP', 'string', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    col('Port(s)', 'string', 'The list of ports that are exposed by this service.'),
    ageColumn(),
    wide('Selector', 'string', 'Route service traffic to pods with label keys and values matching this selector.'),
  ],
  (svc, now) => [
    nameOf(svc),
    stringAt(svc, 'spec', 'type') || 'ClusterIP',
    asString(arrayAt(svc, 'spec', 'clusterIPs')[0]) || stringAt(svc, 'spec', 'clusterIP') || '<none>',
    externalIP(svc),
    servicePorts(svc),
    ageSince(createdAt(svc), now),
    formatLabels(valueAt(svc, 'spec', 'selector')),
  ],
);

/** Up to three `ip:port` endpoints, then "+ N more...". */
function formatEndpoints(ep: unknown): string {
  const subsets = arrayAt(ep, 'subsets').map(asObject);
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const ips = asArray(ss.addresses).map((a) => stringAt(a, 'ip'));
    const ports = asArray(ss.ports).map((p) => asNumber(asObject(p).port));
    for (const port of ports.length > 0 ? ports : [undefined]) {
      count += ips.length;
      for (const ip of ips) {
        if (list.length === 3) break;
        const host = ip.includes(':') ? `[${ip}]` : ip;
        list.push(port === undefined ? ip : `${host}:${port}`);
      }
    }
  }
  return count > 3 ? `${list.join(',')} + ${count - 3} more...` : list.join(',');
}

export const endpointsPrinter: TablePrinter = printer(
  [nameColumn(), col('Endpoints', 'string', 'The set of all endpoints is the union of all subsets.'), ageColumn()],
  (ep, now) => [nameOf(ep), formatEndpoints(ep), ageSince(createdAt(ep), now)],
);
