/**
 * The webhook admission plugin: the registry's Admission seam backed by the stored
 * Mutating/ValidatingWebhookConfigurations, calling real HTTPS webhooks as kube-apiserver does.
 * Requests on the webhook configurations themselves never reach webhooks (kube exempts them, so
 * a broken webhook can always be removed).
 */
import type { KObject } from '../../api/meta.js';
import { logger } from '../../machinery/log.js';
import type { Admission, AdmissionAttributes } from '../registry/context.js';
import type { RegistryReader } from '../registry/reader.js';
import type { ServedResource } from '../registry/served-resource.js';
import { Matcher } from './matching.js';
import { WebhookSource } from './webhook-source.js';
import { WebhookCaller } from './webhook-caller.js';
import type { DispatchDeps, WebhookCallRecord } from './call.js';
import { runMutatingWebhooks } from './mutating.js';
import { runValidatingWebhooks } from './validating.js';
import { AdmissionPolicies } from './admission-policies.js';

export interface WebhookAdmissionOptions {
  /** Reads webhook configurations, webhook Services and Endpoints, and Namespaces for selectors. */
  reader: RegistryReader;
  /** Shared HTTPS caller (e.g. with the conversion webhook converter); one is made when absent. */
  caller?: WebhookCaller;
  /** Called after every webhook call (metrics). */
  observe?: (record: WebhookCallRecord) => void;
}

export interface WebhookAdmission extends Admission {
  readonly caller: WebhookCaller;
  /** Stops following the webhook configurations and closes the connections of its own caller. */
  stop(): void;
}

const exemptResources = new Set([
  'mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies',
  'validatingadmissionpolicybindings', 'mutatingadmissionpolicies', 'mutatingadmissionpolicybindings',
]);

function exempt(r: ServedResource): boolean {
  return r.definition.group === 'admissionregistration.k8s.io' && exemptResources.has(r.definition.plural);
}

export function createWebhookAdmission(options: WebhookAdmissionOptions): WebhookAdmission {
  const { reader } = options;
  const source = new WebhookSource(reader);
  const ownCaller = !options.caller;
  const caller = options.caller ?? new WebhookCaller(reader);
  const matcher = new Matcher(reader);
  const deps: DispatchDeps = { matcher, caller, log: logger('webhook-admission'), observe: options.observe };
  // ValidatingAdmissionPolicy runs before the validating webhooks, as in kube's plugin order.
  const policies = new AdmissionPolicies(reader, matcher);
  return {
    caller,
    async mutate(attrs: AdmissionAttributes): Promise<KObject | undefined> {
      const hooks = source.mutating;
      if (hooks.length === 0 || exempt(attrs.resource)) return attrs.object;
      return runMutatingWebhooks(deps, hooks, attrs);
    },
    async validate(attrs: AdmissionAttributes): Promise<void> {
      if (exempt(attrs.resource)) return;
      policies.validate(attrs);
      const hooks = source.validating;
      if (hooks.length === 0) return;
      await runValidatingWebhooks(deps, hooks, attrs);
    },
    stop() {
      source.stop();
      policies.stop();
      if (ownCaller) caller.close();
    },
  };
}
