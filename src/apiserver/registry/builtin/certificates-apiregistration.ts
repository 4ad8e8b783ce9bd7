/**
 * certificates.k8s.io/v1 CertificateSigningRequest (with its `approval` subresource) and
 * apiregistration.k8s.io/v1 APIService. CSRs are stored and approved but not signed (no signer
 * runs); APIServices of the built-in groups are created at start (system/apiservice-bootstrap.ts),
 * see docs/design/apiserver.md §11.
 */
import type { KObject } from '../../../api/meta.js';
import type { UserInfo } from '../../../api/request.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { child, items, setDefault, str, strings } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';
import { statusSubresource } from '../status-subresource.js';

const keyUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];

export function validateCsr(csr: KObject): FieldError[] {
  const spec = specOf(csr);
  const errs: FieldError[] = [];
  const pem = Buffer.from(str(spec, 'request'), 'base64').toString('latin1');
  if (!/^-----BEGIN CERTIFICATE REQUEST-----\r?\n/m.test(pem)) errs.push(field.invalid('spec.request', null, 'PEM block type must be CERTIFICATE REQUEST'));
  const usages = strings(spec, 'usages');
  if (usages.length === 0) errs.push(field.required('spec.usages'));
  usages.forEach((u, i) => { if (!keyUsages.includes(u)) errs.push(field.notSupported(`spec.usages[${i}]`, u, keyUsages)); });
  if (!str(spec, 'signerName')) errs.push(field.required('spec.signerName'));
  return errs;
}

/** Conditions get their timestamps from the server when the approver leaves them out. */
function stampConditions(csr: KObject): void {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  for (const c of items(child(csr, 'status'), 'conditions')) {
    setDefault(c, 'lastUpdateTime', now);
    setDefault(c, 'lastTransitionTime', now);
  }
}

/** The requester is who created the CSR, whatever the body claims; signers and approvers read it. */
function recordRequester(csr: KObject, user?: UserInfo): void {
  const spec = specOf(csr);
  if (csr.spec === undefined) csr.spec = spec;
  for (const key of ['username', 'uid', 'groups', 'extra']) delete spec[key];
  if (user?.username) spec.username = user.username;
  if (user?.uid) spec.uid = user.uid;
  if (user?.groups?.length) spec.groups = [...user.groups];
  if (user?.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
  delete csr.status;
}

export function certificateSigningRequestsResource(): BuiltinResource {
  return {
    ...builtin(resource({
      group: 'certificates.k8s.io', version: 'v1', kind: 'CertificateSigningRequest', plural: 'certificatesigningrequests', namespaced: false,
      shortNames: ['csr'], status: true, extra: ['approval'],
    }), { default: stampConditions, validate: validateCsr, prepareForCreate: recordRequester }),
    // Approval writes status.conditions, which is what the status storage lets through.
    subresources: { approval: statusSubresource },
  };
}

export function validateApiService(svc: KObject): FieldError[] {
  const spec = specOf(svc);
  const expected = `${str(spec, 'version')}.${str(spec, 'group')}`;
  const errs: FieldError[] = [];
  if (svc.metadata.name !== expected) errs.push(field.invalid('metadata.name', svc.metadata.name, `must be \`spec.version+"."+spec.group\`: "${expected}"`));
  if (!str(spec, 'version')) errs.push(field.required('spec.version'));
  if (!spec.groupPriorityMinimum) errs.push(field.invalid('spec.groupPriorityMinimum', spec.groupPriorityMinimum ?? 0, 'must be positive and less than 20000'));
  if (!spec.versionPriority) errs.push(field.invalid('spec.versionPriority', spec.versionPriority ?? 0, 'must be positive and less than 1000'));
  return errs;
}

export function apiServicesResource(): BuiltinResource {
  return builtin(resource({
    group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', plural: 'apiservices', namespaced: false, categories: ['api-extensions'], status: true,
  }), {
    default: (svc) => { const ref = child(specOf(svc), 'service'); if (ref) setDefault(ref, 'port', 443); },
    validate: validateApiService,
  });
}
