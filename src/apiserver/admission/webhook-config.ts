/**
 * Webhooks of Mutating/ValidatingWebhookConfigurations (admissionregistration.k8s.io/v1) compiled
 * once per configuration change: selectors parsed, defaults filled, the review version chosen, so
 * matching a request does no parsing. `matchConditions` (CEL) are not evaluated: a webhook with
 * match conditions is called as if they all matched.
 */
import type { KObject } from '../../api/meta.js';
import { everything, selectorFromLabelSelector, type LabelSelector, type MetaLabelSelector } from '../../machinery/labels.js';

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

/** clientConfig of an admission or conversion webhook. */
export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** base64 of PEM CA certificates; empty means the system roots. */
  caBundle?: string;
}

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: 'Cluster' | 'Namespaced' | '*';
}

interface WireWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: MetaLabelSelector;
  objectSelector?: MetaLabelSelector;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
}

export type WebhookType = 'mutating' | 'validating';

export interface Webhook {
  /** Identity within the process: configuration name and position. */
  id: string;
  name: string;
  type: WebhookType;
  clientConfig: WebhookClientConfig;
  rules: RuleWithOperations[];
  failOpen: boolean;
  equivalent: boolean;
  /** A parse failure is reported (500) only when the webhook's rules match a request, as kube does. */
  namespaceSelector: LabelSelector | Error;
  objectSelector: LabelSelector | Error;
  /** Safe to call on dry run (sideEffects None or NoneOnDryRun). */
  dryRunSafe: boolean;
  timeoutSeconds: number;
  /** AdmissionReview version to send: the first of admissionReviewVersions we speak. */
  reviewVersion: 'v1' | 'v1beta1' | undefined;
  reinvokeIfNeeded: boolean;
}

function parseSelector(sel: MetaLabelSelector | undefined): LabelSelector | Error {
  if (sel === undefined || sel === null) return everything();
  try {
    return selectorFromLabelSelector(sel);
  } catch (e) {
    return e as Error;
  }
}

/** The webhooks of one configuration object, in their listed order. */
export function compileWebhooks(config: KObject, type: WebhookType): Webhook[] {
  const hooks = Array.isArray(config.webhooks) ? (config.webhooks as WireWebhook[]) : [];
  return hooks.map((h, i) => ({
    id: `${type}/${config.metadata.name}/${i}`,
    name: h.name,
    type,
    clientConfig: h.clientConfig ?? {},
    rules: h.rules ?? [],
    failOpen: h.failurePolicy === 'Ignore',
    equivalent: h.matchPolicy !== 'Exact',
    namespaceSelector: parseSelector(h.namespaceSelector),
    objectSelector: parseSelector(h.objectSelector),
    dryRunSafe: h.sideEffects === 'None' || h.sideEffects === 'NoneOnDryRun',
    timeoutSeconds: h.timeoutSeconds ?? 10,
    reviewVersion: (h.admissionReviewVersions ?? ['v1']).find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1'),
    reinvokeIfNeeded: h.reinvocationPolicy === 'IfNeeded',
  }));
}
