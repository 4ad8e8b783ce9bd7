/** admissionregistration.k8s.io/v1 mutating and validating webhook configurations. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { validateWebhook } from './webhook-validation.js';
import { child, items, setDefault, str } from '../../../machinery/json.js';

/** SetDefaults_{Mutating,Validating}Webhook, Rule and ServiceReference. */
export function defaultWebhooks(config: KObject, mutating: boolean): void {
  for (const hook of items(config, 'webhooks')) {
    setDefault(hook, 'failurePolicy', 'Fail');
    setDefault(hook, 'matchPolicy', 'Equivalent');
    setDefault(hook, 'namespaceSelector', {});
    setDefault(hook, 'objectSelector', {});
    setDefault(hook, 'timeoutSeconds', 10);
    if (mutating) setDefault(hook, 'reinvocationPolicy', 'Never');
    for (const rule of items(hook, 'rules')) setDefault(rule, 'scope', '*');
    const service = child(child(hook, 'clientConfig'), 'service');
    if (service) setDefault(service, 'port', 443);
  }
}

export function validateWebhookConfiguration(config: KObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  items(config, 'webhooks').forEach((hook, i) => {
    const path = `webhooks[${i}]`;
    errs.push(...validateWebhook(hook, path, mutating));
    const name = str(hook, 'name');
    if (name && names.has(name)) errs.push(field.duplicate(`${path}.name`, name));
    names.add(name);
  });
  return errs;
}

function webhookConfigurationResource(kind: string, plural: string, mutating: boolean): BuiltinResource {
  return builtin(resource({
    group: 'admissionregistration.k8s.io', version: 'v1', kind, plural, namespaced: false, categories: ['api-extensions'],
  }), {
    default: (c) => defaultWebhooks(c, mutating),
    validate: (c) => validateWebhookConfiguration(c, mutating),
  }, true);
}

export function mutatingWebhookConfigurationsResource(): BuiltinResource {
  return webhookConfigurationResource('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', true);
}

export function validatingWebhookConfigurationsResource(): BuiltinResource {
  return webhookConfigurationResource('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false);
}
