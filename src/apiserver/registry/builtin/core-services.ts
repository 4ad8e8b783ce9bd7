/**
 * core/v1 services: SetDefaults_Service, cluster IP / node port allocation on create, carrying the
 * allocated values over on update (kubectl apply/replace omit them), and validation.
 */
import type { KObject } from '../../../api/meta.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { createRandomAllocator, type ServiceAllocator } from './service-allocation.js';
import { externallyAccessible, validateService, validateServiceUpdate } from './service-validation.js';
import { child, ensure, has, items, setDefault, setDefaultString, str, strings, type Json } from '../../../machinery/json.js';

export function defaultService(svc: KObject): void {
  const spec = ensure(svc, 'spec');
  setDefaultString(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') setDefault(ensure(ensure(spec, 'sessionAffinityConfig'), 'clientIP'), 'timeoutSeconds', 10800);
  setDefaultString(spec, 'type', 'ClusterIP');
  for (const port of items(spec, 'ports')) {
    setDefaultString(port, 'protocol', 'TCP');
    if (port.targetPort === undefined || port.targetPort === null || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (externallyAccessible(spec)) setDefaultString(spec, 'externalTrafficPolicy', 'Cluster');
  if (['ClusterIP', 'NodePort', 'LoadBalancer'].includes(str(spec, 'type'))) setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

const needsClusterIP = (spec: Json) => spec.type !== 'ExternalName';
const needsNodePorts = (spec: Json) => spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
const needsHealthCheckPort = (spec: Json) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';

function allocateClusterIPs(svc: KObject, spec: Json, alloc: ServiceAllocator): void {
  const ips = strings(spec, 'clusterIPs');
  const ip = str(spec, 'clusterIP') || ips[0] || alloc.clusterIP(svc);
  spec.clusterIP = ip;
  spec.clusterIPs = ips.length > 0 ? ips : [ip];
  const headless = ip === 'None';
  // selector-less headless Services ask for every family the cluster has
  if (headless && !child(spec, 'selector')) setDefault(spec, 'ipFamilyPolicy', 'RequireDualStack');
  setDefault(spec, 'ipFamilyPolicy', 'SingleStack');
  if (strings(spec, 'ipFamilies').length === 0) spec.ipFamilies = ['IPv4'];
}

function allocateNodePorts(spec: Json, alloc: ServiceAllocator): void {
  const ports = items(spec, 'ports');
  const used = new Set(ports.map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n > 0));
  if (needsNodePorts(spec)) {
    for (const port of ports) {
      if (port.nodePort) continue;
      port.nodePort = alloc.nodePort(used);
      used.add(port.nodePort as number);
    }
  }
  if (needsHealthCheckPort(spec) && !spec.healthCheckNodePort) spec.healthCheckNodePort = alloc.nodePort(used);
}

export function prepareServiceForCreate(svc: KObject, alloc: ServiceAllocator): void {
  const spec = ensure(svc, 'spec');
  if (needsClusterIP(spec)) allocateClusterIPs(svc, spec, alloc);
  allocateNodePorts(spec, alloc);
  svc.status = { loadBalancer: {} };
}

/** Keep what was allocated when the new object leaves it out; allocate for newly needed values. */
export function prepareServiceForUpdate(svc: KObject, old: KObject, alloc: ServiceAllocator): void {
  const spec = ensure(svc, 'spec');
  const oldSpec = child(old, 'spec') ?? {};
  if (needsClusterIP(spec) && needsClusterIP(oldSpec) && str(oldSpec, 'clusterIP')) {
    const oldIPs = strings(oldSpec, 'clusterIPs');
    if (!str(spec, 'clusterIP')) spec.clusterIP = oldSpec.clusterIP;
    if (strings(spec, 'clusterIPs').length === 0) spec.clusterIPs = [...oldIPs];
    const ips = strings(spec, 'clusterIPs');
    // an old client changed only clusterIP: carry the change into clusterIPs so validation sees it
    if (spec.clusterIP !== oldSpec.clusterIP && ips[0] === oldIPs[0]) spec.clusterIPs = [spec.clusterIP, ...ips.slice(1)];
    for (const key of ['ipFamilies', 'ipFamilyPolicy']) if (!has(spec, key) && has(oldSpec, key)) spec[key] = oldSpec[key];
  } else if (needsClusterIP(spec)) {
    allocateClusterIPs(svc, spec, alloc);
  }
  if (needsNodePorts(spec)) {
    const oldPorts = items(oldSpec, 'ports');
    for (const port of items(spec, 'ports')) {
      if (port.nodePort) continue;
      const match = oldPorts.find((o) => o.port === port.port && (o.protocol ?? 'TCP') === port.protocol && o.nodePort);
      if (match) port.nodePort = match.nodePort;
    }
  }
  if (needsHealthCheckPort(spec) && !spec.healthCheckNodePort && oldSpec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  allocateNodePorts(spec, alloc);
}

export function servicesResource(alloc: ServiceAllocator = createRandomAllocator()): BuiltinResource {
  return builtin(resource({
    group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true,
    shortNames: ['svc'], categories: ['all'], status: true,
  }), {
    default: defaultService,
    returnDeletedObject: true,
    prepareForCreate: (svc) => prepareServiceForCreate(svc, alloc),
    prepareForUpdate: (svc, old) => prepareServiceForUpdate(svc, old, alloc),
    validate: validateService,
    validateUpdate: validateServiceUpdate,
  });
}
