/**
 * Container-level validation shared by regular, init and ephemeral containers (validateContainerCommon
 * and validateContainerPorts upstream), with the same paths and messages.
 */
import { field, type FieldError } from '../errors.js';
import { dnsLabel, invalidEach, oneOf, portNumber } from '../validation/checks.js';
import { items, str, type Json } from '../json.js';
import { validateResourceRequirements } from './resource-validation.js';

/** IsValidPortName: IANA_SVC_NAME rules, also used for Service targetPort names. */
export function isValidPortName(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens (-)');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen (-)');
  return errs;
}

export function validateContainerCommon(c: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c, 'name');
  if (!name) errs.push(field.required(`${path}.name`));
  else errs.push(...dnsLabel(`${path}.name`, name));
  if (!str(c, 'image')) errs.push(field.required(`${path}.image`));
  errs.push(...oneOf(`${path}.terminationMessagePolicy`, c.terminationMessagePolicy, ['File', 'FallbackToLogsOnError']));
  errs.push(...validateContainerPorts(items(c, 'ports'), `${path}.ports`));
  items(c, 'env').forEach((env, i) => {
    if (!str(env, 'name')) errs.push(field.required(`${path}.env[${i}].name`));
  });
  errs.push(...oneOf(`${path}.imagePullPolicy`, c.imagePullPolicy, ['Always', 'IfNotPresent', 'Never']));
  errs.push(...validateResourceRequirements(c.resources, `${path}.resources`));
  return errs;
}

function validateContainerPorts(ports: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = `${path}[${i}]`;
    const name = str(port, 'name');
    if (name) {
      errs.push(...invalidEach(`${p}.name`, name, isValidPortName(name)));
      if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
      names.add(name);
    }
    if (!port.containerPort) errs.push(field.required(`${p}.containerPort`));
    else errs.push(...portNumber(`${p}.containerPort`, port.containerPort));
    if (port.hostPort) errs.push(...portNumber(`${p}.hostPort`, port.hostPort));
    errs.push(...oneOf(`${p}.protocol`, port.protocol, ['SCTP', 'TCP', 'UDP']));
  });
  return errs;
}

/** Regular containers: at least one, unique names, no container-level restartPolicy. */
export function validateContainers(containers: Json[], path: string): FieldError[] {
  if (containers.length === 0) return [field.required(path)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p));
    const name = str(c, 'name');
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    names.add(name);
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(field.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
  });
  return errs;
}

/** Init containers: names unique across init and regular containers; probes only for sidecars. */
export function validateInitContainers(inits: Json[], regular: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(regular.map((c) => str(c, 'name')));
  inits.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p));
    const restartable = c.restartPolicy === 'Always';
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(...oneOf(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
    const name = str(c, 'name');
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    if (restartable) return;
    for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (c[key] !== undefined && c[key] !== null) errs.push(field.forbidden(`${p}.${key}`, 'may not be set for init containers without restartPolicy=Always'));
    }
  });
  return errs;
}

/** Ephemeral containers: names unique across every container type. */
export function validateEphemeralContainers(ephemeral: Json[], others: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(others.map((c) => str(c, 'name')));
  ephemeral.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, p));
    const name = str(c, 'name');
    if (names.has(name)) errs.push(field.duplicate(`${p}.name`, name));
    else names.add(name);
  });
  return errs;
}
