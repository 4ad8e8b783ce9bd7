/**
 * Two core/v1 resources that store nothing of their own: `bindings` (a POST binds the pod the
 * Binding names, like pods/binding; the HTTP handler routes it there) and the read-only
 * `componentstatuses`, whose three objects the server writes at start (docs/design/apiserver.md §11).
 */
import type { KObject } from '../../../api/meta.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';

export function bindingsResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'Binding', plural: 'bindings', namespaced: true, verbs: ['create'] }), {});
}

export function componentStatusesResource(): BuiltinResource {
  return builtin(resource({ group: '', version: 'v1', kind: 'ComponentStatus', plural: 'componentstatuses', namespaced: false, shortNames: ['cs'], verbs: ['get', 'list'] }), {});
}

/**
 * The components kube-apiserver reports on. Here they run in the server's own process, so
 * whenever the server answers they are up: Healthy with message "ok", as etcd-0 reports upstream.
 */
export function componentStatuses(): KObject[] {
  return ['scheduler', 'controller-manager', 'etcd-0'].map((name) => ({
    apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  }));
}
