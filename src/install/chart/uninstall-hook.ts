/**
 * The chart's pre-delete hook (docs/design/install.md §3): a Job running `kruise uninstall --check`
 * with a ServiceAccount that may only list the three workload kinds; it fails while any CloneSet,
 * Advanced StatefulSet or Advanced DaemonSet exists, and Helm then refuses to uninstall.
 */
import type { ValueReader } from './render.js';

export const hookName = 'kruise-uninstall-check';
/** What the hook lists; `kruise uninstall` refuses on the same kinds. */
export const guardedResources = ['clonesets', 'statefulsets', 'daemonsets'];

const hook = (weight: number) => ({
  'helm.sh/hook': 'pre-delete',
  'helm.sh/hook-weight': String(weight),
  'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
});

export function uninstallHook(r: ValueReader): Record<string, unknown>[] {
  const ns = r.text('installation.namespace');
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: hookName, namespace: ns, annotations: hook(-5) } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: hookName, annotations: hook(-5) },
      rules: [{ apiGroups: ['apps.kruise.io'], resources: guardedResources, verbs: ['list'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: hookName, annotations: hook(-5) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: hookName },
      subjects: [{ kind: 'ServiceAccount', name: hookName, namespace: ns }],
    },
    {
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: hookName, namespace: ns, annotations: hook(0) },
      spec: {
        backoffLimit: 0,
        activeDeadlineSeconds: 300,
        template: {
          metadata: { labels: { 'control-plane': 'uninstall-check' } },
          spec: {
            serviceAccountName: hookName,
            restartPolicy: 'Never',
            imagePullSecrets: r.block('imagePullSecrets'),
            containers: [{
              name: 'check',
              image: `${r.value('manager.image.repository')}:${r.value('manager.image.tag')}`,
              imagePullPolicy: r.text('manager.image.pullPolicy'),
              args: ['uninstall', '--check'],
              securityContext: { runAsNonRoot: true, runAsUser: 65534, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            }],
          },
        },
      },
    },
  ];
}
