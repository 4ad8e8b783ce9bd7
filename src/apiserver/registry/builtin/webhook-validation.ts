/**
 * admissionregistration.k8s.io/v1 webhook checks (ValidateWebhook and friends): names, rules,
 * policies, side effects, review versions, timeouts and the client config.
 */
import { field, type FieldError } from '../../../machinery/errors.js';
import { isDNS1123Subdomain } from '../../../machinery/validation/names.js';
import { isDNS1035Label, oneOf, portNumber } from '../../../machinery/validation/checks.js';
import { validateLabelSelector } from '../../../machinery/validation/label-selector.js';
import { child, has, items, num, str, strings, type Json } from '../../../machinery/json.js';

const acceptedReviewVersions = ['v1', 'v1beta1'];
const operations = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];

/** IsFullyQualifiedName: a DNS subdomain with at least three segments. */
export function validateWebhookName(name: string, path: string): FieldError[] {
  if (!name) return [field.required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [field.invalid(path, name, errs.join(','))];
  return name.split('.').length < 3 ? [field.invalid(path, name, 'should be a domain with at least three segments separated by dots')] : [];
}

function validateRule(rule: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strings(rule, 'operations');
  if (ops.length === 0) errs.push(field.required(`${path}.operations`));
  if (ops.length > 1 && ops.includes('*')) errs.push(field.invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => { if (!operations.includes(op)) errs.push(field.notSupported(`${path}.operations[${i}]`, op, operations)); });
  for (const key of ['apiGroups', 'apiVersions', 'resources']) if (strings(rule, key).length === 0) errs.push(field.required(`${path}.${key}`));
  errs.push(...oneOf(`${path}.scope`, rule.scope, ['*', 'Cluster', 'Namespaced'], false));
  return errs;
}

function validateReviewVersions(versions: string[], path: string): FieldError[] {
  if (versions.length === 0) return [field.required(path, `must specify one of ${acceptedReviewVersions.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push(field.invalid(`${path}[${i}]`, v, 'duplicate version')); return; }
    seen.add(v);
    errs.push(...isDNS1035Label(v).map((m) => field.invalid(`${path}[${i}]`, v, m)));
  });
  if (!versions.some((v) => acceptedReviewVersions.includes(v))) {
    errs.push(field.invalid(path, versions, `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  }
  return errs;
}

export function validateClientConfig(config: Json | undefined, path: string): FieldError[] {
  const url = config?.url;
  const service = child(config, 'service');
  if (has(config, 'url') === !!service) return [field.required(path, 'exactly one of url or service is required')];
  if (service) return validateServiceReference(service, `${path}.service`);
  return validateWebhookURL(String(url), `${path}.url`);
}

function validateWebhookURL(raw: string, path: string): FieldError[] {
  let u: URL;
  try {
    u = new URL(raw);
  } catch (e) {
    return [field.invalid(path, raw, `url must be a valid URL: ${(e as Error).message}`)];
  }
  const errs: FieldError[] = [];
  if (u.protocol !== 'https:') errs.push(field.invalid(path, u.protocol.replace(/:$/, ''), "'https' is the only allowed URL scheme"));
  if (!u.host) errs.push(field.invalid(path, u.host, 'host must be specified'));
  if (u.username || u.password) errs.push(field.invalid(path, raw, 'user information is not permitted in the URL'));
  if (raw.includes('#')) errs.push(field.invalid(path, u.hash.slice(1), 'fragments are not permitted in the URL'));
  if (u.search) errs.push(field.invalid(path, u.search.slice(1), 'query parameters are not permitted in the URL'));
  return errs;
}

function validateServiceReference(service: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(service, 'name')) errs.push(field.required(`${path}.name`, 'service name is required'));
  if (!str(service, 'namespace')) errs.push(field.required(`${path}.namespace`, 'service namespace is required'));
  const port = service.port ?? 443;
  if (portNumber(`${path}.port`, port).length > 0) errs.push(field.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const p = str(service, 'path');
  if (p && !p.startsWith('/')) errs.push(field.invalid(`${path}.path`, p, "must start with a '/'"));
  return errs;
}

export function validateWebhook(hook: Json, path: string, mutating: boolean): FieldError[] {
  const errs = validateWebhookName(str(hook, 'name'), `${path}.name`);
  items(hook, 'rules').forEach((rule, i) => errs.push(...validateRule(rule, `${path}.rules[${i}]`)));
  errs.push(...oneOf(`${path}.failurePolicy`, hook.failurePolicy, ['Fail', 'Ignore'], false));
  errs.push(...oneOf(`${path}.matchPolicy`, hook.matchPolicy, ['Equivalent', 'Exact'], false));
  if (!has(hook, 'sideEffects')) errs.push(field.required(`${path}.sideEffects`, 'must specify one of None, NoneOnDryRun'));
  else errs.push(...oneOf(`${path}.sideEffects`, hook.sideEffects, ['None', 'NoneOnDryRun']));
  errs.push(...validateReviewVersions(strings(hook, 'admissionReviewVersions'), `${path}.admissionReviewVersions`));
  const timeout = num(hook, 'timeoutSeconds');
  if (timeout !== undefined && (timeout < 1 || timeout > 30)) {
    errs.push(field.invalid(`${path}.timeoutSeconds`, timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  errs.push(...validateLabelSelector(hook.namespaceSelector, `${path}.namespaceSelector`));
  errs.push(...validateLabelSelector(hook.objectSelector, `${path}.objectSelector`));
  if (mutating) errs.push(...oneOf(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, ['IfNeeded', 'Never'], false));
  errs.push(...validateClientConfig(child(hook, 'clientConfig'), `${path}.clientConfig`));
  return errs;
}
