/**
 * The probe of a PodProbeMarker entry: exactly one handler (exec with a command, tcpSocket or
 * httpGet against the pod itself: no host; a valid port number or name; httpGet with a path and
 * an explicit HTTP or HTTPS scheme, since no webhook defaults it) and non-negative timings.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, items, str, strings, type Json } from '../../machinery/json.js';
import { isValidPortName } from '../../machinery/podspec/container-validation.js';
import { invalidEach, nonNegative, portNumber } from '../../machinery/validation/checks.js';

const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const timings = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];
const headerNameRe = /^[-A-Za-z0-9]+$/;

export function validateProbe(probe: Json | undefined, path: string): FieldError[] {
  if (!probe) return [field.required(path, "probe can't be empty in podProbeMarker.")];
  const errs: FieldError[] = [];
  const present = handlers.filter((h) => has(probe, h));
  if (present.length === 0) errs.push(field.required(path, 'must specify a handler type'));
  for (const extra of present.slice(1)) errs.push(field.forbidden(`${path}.${extra}`, 'may not specify more than 1 handler type'));
  const handler = present[0];
  const p = `${path}.${handler}`;
  if (handler === 'exec' && strings(child(probe, 'exec'), 'command').length === 0) errs.push(field.required(`${p}.command`));
  if (handler === 'grpc') errs.push(field.forbidden(p, 'grpc probe is not supported by PodProbeMarker'));
  if (handler === 'tcpSocket' || handler === 'httpGet') errs.push(...validateNetworkAction(child(probe, handler) ?? {}, p));
  if (handler === 'httpGet') errs.push(...validateHttpGet(child(probe, 'httpGet') ?? {}, p));
  for (const key of timings) errs.push(...nonNegative(`${path}.${key}`, probe[key]));
  return errs;
}

function validateNetworkAction(action: Json, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (str(action, 'host')) errs.push(field.forbidden(`${p}.host`, 'host is not supported, probes always target the pod IP'));
  const port = action.port;
  if (typeof port === 'string') errs.push(...invalidEach(`${p}.port`, port, isValidPortName(port)));
  else errs.push(...portNumber(`${p}.port`, port));
  return errs;
}

function validateHttpGet(http: Json, p: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(http, 'path')) errs.push(field.required(`${p}.path`));
  const scheme = str(http, 'scheme');
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(field.notSupported(`${p}.scheme`, scheme, ['HTTP', 'HTTPS']));
  items(http, 'httpHeaders').forEach((h, i) => {
    const name = str(h, 'name');
    if (!headerNameRe.test(name)) {
      errs.push(field.invalid(`${p}.httpHeaders[${i}].name`, name, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
    }
  });
  return errs;
}
