/** core/v1 nodes, endpoints, podtemplates, limitranges and resourcequotas. */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { oneOf } from '../../../machinery/validation/checks.js';
import { builtin, resource } from './define.js';
import { defaultPodTemplate } from '../../../machinery/podspec/pod-spec-defaults.js';
import { validatePodTemplate } from '../../../machinery/podspec/pod-spec-validation.js';
import { canonicalizeResourceList } from '../../../machinery/podspec/quantities.js';
import { child, ensure, isObject, items, setDefaultString, str } from '../../../machinery/json.js';

export function nodesResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'], status: true }), {
    default: (node) => {
      const status = child(node, 'status');
      canonicalizeResourceList(child(status, 'capacity'));
      canonicalizeResourceList(child(status, 'allocatable'));
    },
    validate: (node) => items(child(node, 'spec'), 'taints').flatMap((t, i) => [
      ...(str(t, 'key') ? [] : [field.required(`spec.taints[${i}].key`)]),
      ...oneOf(`spec.taints[${i}].effect`, t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
    ]),
    fieldAttributes: (node) => ({ 'spec.unschedulable': String(child(node, 'spec')?.unschedulable === true) }),
  });
}

export function endpointsResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] }), {
    default: (ep) => {
      for (const subset of items(ep, 'subsets')) for (const port of items(subset, 'ports')) setDefaultString(port, 'protocol', 'TCP');
    },
  });
}

export function podTemplatesResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true }), {
    default: (pt) => defaultPodTemplate(ensure(pt, 'template')),
    validate: (pt) => validatePodTemplate(pt.template, 'template'),
    returnDeletedObject: true,
  }, true);
}

/** SetDefaults_LimitRangeItem: container defaults from max, default requests from default then min. */
function defaultLimitRange(lr: KObject): void {
  for (const item of items(child(lr, 'spec'), 'limits')) {
    for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) canonicalizeResourceList(child(item, key));
    if (item.type !== 'Container') continue;
    const fill = (target: string, source: string) => {
      const from = child(item, source);
      if (!from || Object.keys(from).length === 0) return;
      const to = isObject(item[target]) ? (item[target] as Record<string, unknown>) : {};
      for (const [k, v] of Object.entries(from)) if (to[k] === undefined) to[k] = v;
      if (Object.keys(to).length > 0) item[target] = to;
    };
    fill('default', 'max');
    fill('defaultRequest', 'default');
    fill('defaultRequest', 'min');
  }
}

export function limitRangesResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'] }), {
    default: defaultLimitRange,
    validate: (lr) => items(child(lr, 'spec'), 'limits').flatMap((item, i): FieldError[] =>
      oneOf(`spec.limits[${i}].type`, item.type, ['Pod', 'Container', 'PersistentVolumeClaim'])),
  });
}

export function resourceQuotasResource(): BuiltinResource {
  return builtin(resource({
    group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true, shortNames: ['quota'], status: true,
  }), {
    returnDeletedObject: true,
    default: (q) => {
      canonicalizeResourceList(child(child(q, 'spec'), 'hard'));
      canonicalizeResourceList(child(child(q, 'status'), 'hard'));
      canonicalizeResourceList(child(child(q, 'status'), 'used'));
    },
  });
}
