/**
 * The two admission webhook configurations, rendered from the webhook inventory the way the
 * Kruise chart renders them: Service clientConfig without caBundle and annotation `template: ""`;
 * the manager fills in caBundle and prunes unserved entries (docs/design/webhooks.md §5). Every field
 * the API server would default is written out, so the manager's saved template equals what it reads.
 */
import type { KObject } from '../api/meta.js';
import {
  mutatingConfigurationName, mutatingWebhookInventory, templateAnnotation, validatingConfigurationName, validatingWebhookInventory,
  webhookAdmissionReviewVersions, webhookSecretName, webhookServiceName, webhookTimeoutSeconds, type WebhookInventoryEntry,
} from '../api/kruise/webhook-inventory.js';

export function webhookOf(entry: WebhookInventoryEntry, namespace: string): Record<string, unknown> {
  return {
    name: entry.name,
    admissionReviewVersions: [...webhookAdmissionReviewVersions],
    clientConfig: { service: { namespace, name: webhookServiceName, path: entry.path, port: 443 } },
    failurePolicy: entry.failurePolicy,
    matchPolicy: 'Equivalent',
    namespaceSelector: structuredClone(entry.namespaceSelector ?? {}),
    objectSelector: structuredClone(entry.objectSelector ?? {}),
    ...(entry.type === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
    rules: [{ ...structuredClone(entry.rule), scope: '*' }],
    sideEffects: 'None',
    timeoutSeconds: webhookTimeoutSeconds,
  };
}

export function webhookConfigurations(namespace: string): KObject[] {
  const config = (kind: string, name: string, entries: WebhookInventoryEntry[]): KObject => ({
    apiVersion: 'admissionregistration.k8s.io/v1', kind,
    metadata: { name, annotations: { [templateAnnotation]: '' } },
    webhooks: entries.map((e) => webhookOf(e, namespace)),
  });
  return [
    config('MutatingWebhookConfiguration', mutatingConfigurationName, mutatingWebhookInventory),
    config('ValidatingWebhookConfiguration', validatingConfigurationName, validatingWebhookInventory),
  ];
}

/** The webhook Service (443 → the manager's webhook port) and the Secret the manager fills with certificates. */
export function webhookServiceAndSecret(namespace: string, webhookPort = 9876): KObject[] {
  return [
    {
      apiVersion: 'v1', kind: 'Service', metadata: { name: webhookServiceName, namespace },
      spec: { ports: [{ port: 443, targetPort: webhookPort, protocol: 'TCP' }], selector: { 'control-plane': 'controller-manager' } },
    },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: webhookSecretName, namespace }, type: 'Opaque' },
  ];
}
