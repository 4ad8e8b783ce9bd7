/** Webhook admission and CRD conversion webhooks of the embedded API server. */
export { createWebhookAdmission, type WebhookAdmission, type WebhookAdmissionOptions } from './webhook-admission.js';
export { createWebhookConverter, type WebhookConverterOptions } from './conversion.js';
export { WebhookCaller, WebhookCallError } from './webhook-caller.js';
export type { WebhookCallRecord } from './call.js';
