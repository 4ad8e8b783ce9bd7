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

/** Chart values of the webhook configurations (webhookConfiguration.*, externalCerts.annotations). */
export interface WebhookConfigurationValues {
  podFailurePolicy: string;
  timeoutSeconds: number;
  annotations: Record<string, string>;
}

const inventoryDefaults: WebhookConfigurationValues = { podFailurePolicy: 'Fail', timeoutSeconds: webhookTimeoutSeconds, annotations: {} };

export function webhookOf(entry: WebhookInventoryEntry, namespace: string, values: WebhookConfigurationValues = inventoryDefaults): Record<string, unknown> {
  return {
    name: entry.name,
    admissionReviewVersions: [...webhookAdmissionReviewVersions],
    clientConfig: { service: { namespace, name: webhookServiceName, path: entry.path, port: 443 } },
    failurePolicy: entry.handler === 'Pod' ? values.podFailurePolicy : entry.failurePolicy,
    matchPolicy: 'Equivalent',
    namespaceSelector: structuredClone(entry.namespaceSelector ?? {}),
    objectSelector: structuredClone(entry.objectSelector ?? {}),
    ...(entry.type === 'mutating' ? { reinvocationPolicy: 'Never' } : {}),
    rules: [{ ...structuredClone(entry.rule), scope: '*' }],
    sideEffects: 'None',
    timeoutSeconds: values.timeoutSeconds,
  };
}

export function webhookConfigurations(namespace: string, values: WebhookConfigurationValues = inventoryDefaults): KObject[] {
  const config = (kind: string, name: string, entries: WebhookInventoryEntry[]): KObject => ({
    apiVersion: 'admissionregistration.k8s.io/v1', kind,
    metadata: { name, annotations: { [templateAnnotation]: '', ...values.annotations } },
    webhooks: entries.map((e) => webhookOf(e, namespace, values)),
  });
  return [
    config('MutatingWebhookConfiguration', mutatingConfigurationName, mutatingWebhookInventory),
    config('ValidatingWebhookConfiguration', validatingConfigurationName, validatingWebhookInventory),
  ];
}

/** The webhook Service: 443 → the manager's webhook port. */
export function webhookService(namespace: string, webhookPort: number | string = 9876): KObject {
  return {
    apiVersion: 'v1', kind: 'Service', metadata: { name: webhookServiceName, namespace },
    spec: { ports: [{ port: 443, targetPort: webhookPort, protocol: 'TCP' }], selector: { 'control-plane': 'controller-manager' } },
  } as KObject;
}

/** The Secret the manager fills with its certificates (docs/design/webhooks.md §5). */
export function webhookSecret(namespace: string): KObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name: webhookSecretName, namespace }, type: 'Opaque' };
}
