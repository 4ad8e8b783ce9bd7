/**
 * ValidatingAdmissionPolicy: each binding with a `Deny` action applies its policy's CEL validations
 * to the requests its policy's matchConstraints (and the binding's matchResources) select, with
 * @marcbachmann/cel-js as the CEL interpreter. The first failing validation refuses the request the
 * way kube-apiserver words it (docs/design/apiserver.md §11). Params, variables, matchConditions
 * and auditAnnotations are not supported; a policy that uses params is skipped.
 */
import { evaluate } from '@marcbachmann/cel-js';
import type { KObject } from '../../api/meta.js';
import { StatusError } from '../../machinery/errors.js';
import type { AdmissionAttributes } from '../registry/context.js';
import type { RegistryReader, WatchHandle } from '../registry/reader.js';
import { compileWebhooks, type Webhook } from './webhook-config.js';
import type { Matcher } from './matching.js';
import { requestView } from './request-view.js';

type Json = Record<string, any>;

const reasons: Record<string, [number, string]> = {
  Invalid: [422, 'Invalid'], Forbidden: [403, 'Forbidden'], Unauthorized: [401, 'Unauthorized'], RequestEntityTooLarge: [413, 'RequestEntityTooLarge'],
};

const everything = { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'], scope: '*' };

/** The selection rules of matchConstraints/matchResources, compiled like a webhook's so the webhook Matcher applies them. */
function selection(name: string, match: Json | undefined, unsetRulesMatchAll = false): Webhook | undefined {
  if (!match) return undefined;
  // A binding's matchResources without resourceRules narrows by selectors only.
  const rules = match.resourceRules ?? (unsetRulesMatchAll ? [everything] : []);
  const hook = { name, clientConfig: {}, rules, matchPolicy: match.matchPolicy, namespaceSelector: match.namespaceSelector, objectSelector: match.objectSelector };
  return compileWebhooks({ metadata: { name }, webhooks: [hook] } as KObject, 'validating')[0];
}

/** Follows the stored policies and bindings through the reader's watch. */
export class AdmissionPolicies {
  private readonly policies = new Map<string, KObject>();
  private readonly bindings = new Map<string, KObject>();
  private readonly handles: WatchHandle[] = [];

  constructor(reader: RegistryReader, private readonly matcher: Matcher) {
    const follow = (plural: string, into: Map<string, KObject>) => {
      const r = reader.table.lookup('admissionregistration.k8s.io', 'v1', plural);
      if (!r) return;
      const list = reader.listStored(r);
      for (const item of list.items) into.set(item.metadata.name!, item);
      this.handles.push(reader.watchStored(r, undefined, list.rv, (e) => {
        if (e.type === 'DELETED') into.delete(e.object.metadata.name!);
        else into.set(e.object.metadata.name!, e.object);
      }));
    };
    follow('validatingadmissionpolicies', this.policies);
    follow('validatingadmissionpolicybindings', this.bindings);
  }

  /** Throws the refusal of the first binding whose policy denies the request. */
  validate(attrs: AdmissionAttributes): void {
    if (this.bindings.size === 0 || attrs.operation === 'CONNECT') return;
    const view = requestView(attrs, attrs.object);
    for (const name of [...this.bindings.keys()].sort()) {
      const binding = this.bindings.get(name)!;
      const spec = (binding.spec ?? {}) as Json;
      const policy = this.policies.get(spec.policyName);
      const policySpec = (policy?.spec ?? {}) as Json;
      if (!policy || policySpec.paramKind || !(spec.validationActions ?? []).includes('Deny')) continue;
      const constraints = selection(policy.metadata.name!, policySpec.matchConstraints);
      if (!constraints || !this.matcher.match(constraints, view)) continue;
      const narrowed = selection(name, spec.matchResources, true);
      if (narrowed && !this.matcher.match(narrowed, view)) continue;
      this.check(policy, name, policySpec, attrs);
    }
  }

  private check(policy: KObject, binding: string, spec: Json, attrs: AdmissionAttributes): void {
    const r = attrs.resource.definition;
    const vars = {
      object: attrs.operation === 'DELETE' ? null : attrs.object ?? null,
      oldObject: attrs.oldObject ?? null,
      request: { operation: attrs.operation, name: attrs.name ?? '', namespace: attrs.namespace ?? '', userInfo: { username: attrs.ctx.user.username, groups: attrs.ctx.user.groups ?? [] },
        resource: { group: r.group, version: r.version, resource: r.plural }, subResource: attrs.subresource ?? '', dryRun: attrs.ctx.dryRun },
    };
    for (const v of (spec.validations ?? []) as Json[]) {
      let passed: unknown;
      try {
        passed = evaluate(String(v.expression), vars);
      } catch (e) {
        if (spec.failurePolicy === 'Ignore') continue;
        passed = `expression '${v.expression}' resulted in error: ${(e as Error).message}`;
      }
      if (passed === true) continue;
      const why = typeof passed === 'string' ? passed : v.message || `failed expression: ${v.expression}`;
      const message = `ValidatingAdmissionPolicy '${policy.metadata.name}' with binding '${binding}' denied request: ${why}`;
      const [code, reason] = reasons[v.reason as string] ?? reasons.Invalid!;
      const resource = r.group ? `${r.plural}.${r.group}` : r.plural;
      throw new StatusError(code, reason, `${resource} "${attrs.name ?? ''}" is forbidden: ${message}`, { name: attrs.name, group: r.group || undefined, kind: r.plural, causes: [{ message }] });
    }
  }

  stop(): void {
    for (const h of this.handles) h.stop();
    this.handles.length = 0;
  }
}
