/**
 * core/v1 configmaps, secrets and serviceaccounts: key validation, `immutable`, secret types (Opaque
 * default, required keys per type) and the stringData -> data folding the real server does on decode.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import { semanticEqual } from '../../../machinery/semantic-equal.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { immutable, invalidEach } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { child, isObject, setDefaultString, str } from '../../../machinery/json.js';
import { serviceAccountTokenSubresource, type TokenIssuer } from './serviceaccount-token.js';

const keyFmt = '[-._a-zA-Z0-9]+';
const keyRe = new RegExp(`^${keyFmt}$`);

export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!keyRe.test(key)) {
    errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' "
      + `(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${keyFmt}')`);
  }
  if (key === '.' || key === '..') errs.push(`must not be '${key}'`);
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

function validateKeys(obj: KObject, maps: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const map of maps) {
    for (const key of Object.keys(child(obj, map) ?? {})) {
      errs.push(...invalidEach(`${map}[${key}]`, key, isConfigMapKey(key)));
      if (seen.has(key)) errs.push(field.invalid(`${map}[${key}]`, key, `duplicate of key present in ${maps.find((m) => m !== map)}`));
      seen.add(key);
    }
  }
  return errs;
}

/** Once `immutable: true`, the flag and the data maps are frozen. */
function validateImmutableData(obj: KObject, old: KObject, maps: string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  const frozen = 'field is immutable when `immutable` is set';
  if (obj.immutable !== true) errs.push(field.forbidden('immutable', frozen));
  for (const map of maps) if (!semanticEqual(obj[map], old[map])) errs.push(field.forbidden(map, frozen));
  return errs;
}

export function configMapsResource(): BuiltinResource {
  const maps = ['data', 'binaryData'];
  return builtin(resource({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }), {
    validate: (cm) => validateKeys(cm, maps),
    validateUpdate: (cm, old) => validateImmutableData(cm, old, maps),
  });
}

/** v1 -> internal conversion: stringData entries override data (base64 of their UTF-8) and vanish. */
export function defaultSecret(secret: KObject): void {
  setDefaultString(secret, 'type', 'Opaque');
  const stringData = secret.stringData;
  if (!isObject(stringData)) return;
  const data = isObject(secret.data) ? secret.data : {};
  for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
  secret.data = data;
  delete secret.stringData;
}

const requiredKeys: Record<string, string[]> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};

export function validateSecret(secret: KObject): FieldError[] {
  const errs = validateKeys(secret, ['data']);
  const type = str(secret, 'type');
  const data = child(secret, 'data') ?? {};
  for (const key of requiredKeys[type] ?? []) if (data[key] === undefined) errs.push(field.required(`data[${key}]`));
  if (type === 'kubernetes.io/basic-auth' && data.username === undefined && data.password === undefined) errs.push(field.required('data[username]'));
  if (type === 'kubernetes.io/service-account-token' && !secret.metadata.annotations?.['kubernetes.io/service-account.name']) {
    errs.push(field.required('metadata.annotations[kubernetes.io/service-account.name]'));
  }
  return errs;
}

export function secretsResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true }), {
    default: defaultSecret,
    validate: validateSecret,
    validateUpdate: (s, old) => [...immutable('type', s.type, old.type), ...validateImmutableData(s, old, ['data'])],
    fieldAttributes: (s) => ({ type: str(s, 'type') }),
  });
}

/** With an issuer, `serviceaccounts/token` mints tokens (TokenRequest); without one it is only advertised. */
export function serviceAccountsResource(tokenIssuer?: TokenIssuer): BuiltinResource {
  const sa = builtin(resource({
    group: '', version: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'], extra: ['token'],
  }), { returnDeletedObject: true });
  return tokenIssuer ? { ...sa, subresources: { token: serviceAccountTokenSubresource(tokenIssuer) } } : sa;
}
