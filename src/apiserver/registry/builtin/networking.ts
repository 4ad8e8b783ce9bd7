/**
 * networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy, and node.k8s.io/v1 RuntimeClass:
 * stored with kube-apiserver's defaults and the validation clients meet first
 * (docs/design/apiserver.md §11). Nothing acts on them; there is no ingress controller.
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { dnsLabel, immutable, oneOf } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { child, has, items, setDefaultString, str, strings } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';
import { validateLabelSelector } from '../../../machinery/validation/label-selector.js';

const networking = 'networking.k8s.io';

export function validateIngress(ing: KObject): FieldError[] {
  const spec = specOf(ing);
  const errs: FieldError[] = [];
  if (!has(spec, 'defaultBackend') && items(spec, 'rules').length === 0) {
    errs.push(field.invalid('spec', null, 'either `defaultBackend` or `rules` must be specified'));
  }
  items(spec, 'rules').forEach((rule, i) => {
    items(child(rule, 'http'), 'paths').forEach((p, j) => {
      const path = `spec.rules[${i}].http.paths[${j}]`;
      if (!str(p, 'pathType')) errs.push(field.required(`${path}.pathType`, 'pathType must be specified'));
      else errs.push(...oneOf(`${path}.pathType`, p.pathType, ['Exact', 'ImplementationSpecific', 'Prefix']));
      if (str(p, 'pathType') !== 'ImplementationSpecific' && !str(p, 'path').startsWith('/')) errs.push(field.invalid(`${path}.path`, str(p, 'path'), 'must be an absolute path'));
    });
  });
  return errs;
}

export function ingressesResource(): BuiltinResource {
  return builtin(resource({ group: networking, version: 'v1', kind: 'Ingress', plural: 'ingresses', namespaced: true, shortNames: ['ing'], status: true }), {
    validate: validateIngress,
  }, true);
}

export function ingressClassesResource(): BuiltinResource {
  return builtin(resource({ group: networking, version: 'v1', kind: 'IngressClass', plural: 'ingressclasses', namespaced: false }), {
    validate: (ic) => (str(specOf(ic), 'controller') ? [] : [field.required('spec.controller')]),
    validateUpdate: (ic, old) => immutable('spec.controller', specOf(ic).controller, specOf(old).controller),
  }, true);
}

function defaultNetworkPolicy(np: KObject): void {
  const spec = specOf(np);
  for (const rule of [...items(spec, 'ingress'), ...items(spec, 'egress')]) {
    for (const port of items(rule, 'ports')) setDefaultString(port, 'protocol', 'TCP');
  }
  if (strings(spec, 'policyTypes').length === 0) spec.policyTypes = has(spec, 'egress') ? ['Ingress', 'Egress'] : ['Ingress'];
}

export function validateNetworkPolicy(np: KObject): FieldError[] {
  const spec = specOf(np);
  const errs = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  strings(spec, 'policyTypes').forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(field.notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  return errs;
}

export function networkPoliciesResource(): BuiltinResource {
  return builtin(resource({ group: networking, version: 'v1', kind: 'NetworkPolicy', plural: 'networkpolicies', namespaced: true, shortNames: ['netpol'] }), {
    default: defaultNetworkPolicy,
    validate: validateNetworkPolicy,
  }, true);
}

export function runtimeClassesResource(): BuiltinResource {
  return builtin(resource({ group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false }), {
    validate: (rc) => (str(rc, 'handler') ? dnsLabel('handler', str(rc, 'handler')) : [field.required('handler')]),
    validateUpdate: (rc, old) => immutable('handler', rc.handler, old.handler),
  });
}
