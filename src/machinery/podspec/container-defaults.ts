/**
 * SetDefaults_Container and friends: what the real server fills into every container, whether in a
 * Pod or in a pod template (imagePullPolicy, termination message, port protocol, probe timings,
 * downward API versions) plus quantity canonicalisation of its resources.
 */
import { canonicalizeRequirements, canonicalizeField } from './quantities.js';
import { child, items, setDefault, setDefaultString, str, type Json } from '../json.js';

/** `Always` for `:latest` or an untagged, undigested image; `IfNotPresent` otherwise. */
export function pullPolicyFor(image: string): 'Always' | 'IfNotPresent' {
  const hasDigest = image.includes('@');
  const name = image.split('@')[0];
  const colon = name.lastIndexOf(':');
  let tag = colon > name.lastIndexOf('/') ? name.slice(colon + 1) : '';
  if (!tag && !hasDigest) tag = 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

export function defaultContainer(c: Json): void {
  setDefaultString(c, 'imagePullPolicy', pullPolicyFor(str(c, 'image')));
  setDefaultString(c, 'terminationMessagePath', '/dev/termination-log');
  setDefaultString(c, 'terminationMessagePolicy', 'File');
  for (const port of items(c, 'ports')) setDefaultString(port, 'protocol', 'TCP');
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(child(c, probe));
  const lifecycle = child(c, 'lifecycle');
  defaultHandler(child(lifecycle, 'postStart'));
  defaultHandler(child(lifecycle, 'preStop'));
  for (const env of items(c, 'env')) defaultEnvSource(child(env, 'valueFrom'));
  canonicalizeRequirements(child(c, 'resources'));
}

/** Probe timings are plain int32 fields upstream, so 0 counts as unset too. */
function defaultProbe(probe: Json | undefined): void {
  if (!probe) return;
  const timings: [string, number][] = [['timeoutSeconds', 1], ['periodSeconds', 10], ['successThreshold', 1], ['failureThreshold', 3]];
  for (const [key, value] of timings) if (!probe[key]) probe[key] = value;
  defaultHandler(probe);
}

function defaultHandler(handler: Json | undefined): void {
  const http = child(handler, 'httpGet');
  if (!http) return;
  setDefaultString(http, 'path', '/');
  setDefaultString(http, 'scheme', 'HTTP');
}

/** Env `valueFrom` and downward API items: fieldRef.apiVersion v1, resourceFieldRef.divisor "0". */
export function defaultEnvSource(source: Json | undefined): void {
  const fieldRef = child(source, 'fieldRef');
  if (fieldRef) setDefaultString(fieldRef, 'apiVersion', 'v1');
  const resourceRef = child(source, 'resourceFieldRef');
  if (resourceRef) {
    setDefault(resourceRef, 'divisor', '0');
    canonicalizeField(resourceRef, 'divisor');
  }
}
