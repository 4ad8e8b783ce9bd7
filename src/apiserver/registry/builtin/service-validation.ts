/** ValidateService / ValidateServiceUpdate for a single-stack IPv4 cluster with the 10.96.0.0/12 range. */
import { isIP } from 'node:net';
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { dnsLabel, dnsSubdomain, invalidEach, oneOf, portNumber } from '../../../machinery/validation/checks.js';
import { isValidPortName } from '../../../machinery/podspec/container-validation.js';
import { ipInServiceCIDR, nodePortRange, serviceCIDR } from './service-allocation.js';
import { child, items, str, strings, type Json } from '../../../machinery/json.js';

export const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

export function externallyAccessible(spec: Json): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && strings(spec, 'externalIPs').length > 0);
}

export function validateService(svc: KObject): FieldError[] {
  const spec = child(svc, 'spec') ?? {};
  const errs = oneOf('spec.type', spec.type, serviceTypes);
  const headless = spec.clusterIP === 'None';
  if (spec.type === 'ExternalName') {
    const name = str(spec, 'externalName');
    if (!name) errs.push(field.required('spec.externalName'));
    else errs.push(...dnsSubdomain('spec.externalName', name));
  }
  const ports = items(spec, 'ports');
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(field.required('spec.ports'));
  errs.push(...validateServicePorts(ports, spec));
  errs.push(...oneOf('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  errs.push(...validateClusterIPs(spec));
  strings(spec, 'ipFamilies').forEach((family, i) => {
    if (family === 'IPv6') errs.push(field.invalid(`spec.ipFamilies[${i}]`, family, 'not configured on this cluster'));
    else errs.push(...oneOf(`spec.ipFamilies[${i}]`, family, ['IPv4', 'IPv6']));
  });
  errs.push(...oneOf('spec.ipFamilyPolicy', spec.ipFamilyPolicy, ['PreferDualStack', 'RequireDualStack', 'SingleStack'], false));
  if (spec.ipFamilyPolicy === 'RequireDualStack' && !headless) {
    errs.push(field.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  errs.push(...oneOf('spec.internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local'], false));
  if (spec.externalTrafficPolicy && !externallyAccessible(spec)) {
    errs.push(field.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
  } else errs.push(...oneOf('spec.externalTrafficPolicy', spec.externalTrafficPolicy, ['Cluster', 'Local'], false));
  return errs;
}

function validateServicePorts(ports: Json[], spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  const keys = new Set<string>();
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const p = `spec.ports[${i}]`;
    const name = str(port, 'name');
    if (ports.length > 1 && !name) errs.push(field.required(`${p}.name`));
    if (name) errs.push(...dnsLabel(`${p}.name`, name));
    if (name && names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    names.add(name);
    errs.push(...portNumber(`${p}.port`, port.port));
    errs.push(...oneOf(`${p}.protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']));
    if (typeof port.targetPort === 'string') errs.push(...invalidEach(`${p}.targetPort`, port.targetPort, isValidPortName(port.targetPort)));
    else errs.push(...portNumber(`${p}.targetPort`, port.targetPort));
    const key = `${String(port.port)}/${str(port, 'protocol')}`;
    if (keys.has(key)) errs.push(field.duplicate(p, { port: port.port, protocol: port.protocol }));
    keys.add(key);
    errs.push(...validateNodePort(port, `${p}.nodePort`, spec, nodePorts));
  });
  return errs;
}

function validateNodePort(port: Json, path: string, spec: Json, seen: Set<string>): FieldError[] {
  const nodePort = port.nodePort;
  if (nodePort === undefined || nodePort === null || nodePort === 0) return [];
  if (spec.type === 'ClusterIP') return [field.forbidden(path, "may not be used when `type` is 'ClusterIP'")];
  if (typeof nodePort !== 'number' || nodePort < nodePortRange.min || nodePort > nodePortRange.max) {
    return [field.invalid(path, nodePort, `provided port is not in the valid range. The range of valid ports is ${nodePortRange.min}-${nodePortRange.max}`)];
  }
  const key = `${nodePort}/${str(port, 'protocol')}`;
  if (seen.has(key)) return [field.duplicate(path, nodePort)];
  seen.add(key);
  return [];
}

function validateClusterIPs(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const ips = strings(spec, 'clusterIPs');
  ips.forEach((ip, i) => {
    if (ip === 'None') return;
    if (!isIP(ip)) errs.push(field.invalid(`spec.clusterIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    else if (!ipInServiceCIDR(ip)) {
      errs.push(field.invalid('spec.clusterIPs', ips, `failed to allocate IP ${ip}: the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${serviceCIDR}`));
    }
  });
  const ip = str(spec, 'clusterIP');
  if (ip && ips.length > 0 && ips[0] !== ip) errs.push(field.invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`'));
  return errs;
}

/** The primary cluster IP never changes, unless the Service moves to or from ExternalName. */
export function validateServiceUpdate(svc: KObject, old: KObject): FieldError[] {
  const spec = child(svc, 'spec') ?? {};
  const oldSpec = child(old, 'spec') ?? {};
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  const oldIPs = strings(oldSpec, 'clusterIPs');
  const ips = strings(spec, 'clusterIPs');
  if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) return [field.invalid('spec.clusterIPs[0]', ips, 'may not change once set')];
  return [];
}
