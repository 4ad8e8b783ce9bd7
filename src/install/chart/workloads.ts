/**
 * The manager Deployment and the daemon DaemonSet as OpenKruise's chart deploys them
 * (docs/design/install.md §1): the container runs `kruise manager` / `kruise daemon` from the image
 * and reads its in-cluster config from the pod's service-account token.
 */
import type { ValueReader } from './render.js';
import { mallocVariables } from './values.js';

const image = (r: ValueReader, component: 'manager') => `${r.value(`${component}.image.repository`)}:${r.value(`${component}.image.tag`)}`;

/** uid 65534, no privilege escalation, only NET_BIND_SERVICE (a webhook port under 1024 with hostNetwork). */
const nonRoot = {
  runAsNonRoot: true, runAsUser: 65534, allowPrivilegeEscalation: false, readOnlyRootFilesystem: false,
  capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
};

export function managerDeployment(r: ValueReader): Record<string, unknown> {
  const ns = r.text('installation.namespace');
  const labels = { 'control-plane': 'controller-manager' };
  const preferredSpread = (topologyKey: string, weight: number) => ({ weight, podAffinityTerm: { topologyKey, labelSelector: { matchLabels: labels } } });
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'kruise-controller-manager', namespace: ns, labels },
    spec: {
      replicas: r.value<number>('manager.replicas'),
      selector: { matchLabels: labels },
      minReadySeconds: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '100%' } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: 'kruise-manager',
          terminationGracePeriodSeconds: 10,
          hostNetwork: r.value<boolean>('manager.hostNetwork'),
          imagePullSecrets: r.block('imagePullSecrets'),
          nodeSelector: r.block('manager.nodeSelector'),
          tolerations: r.block('manager.tolerations'),
          affinity: {
            nodeAffinity: r.block('manager.nodeAffinity'),
            podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferredSpread('kubernetes.io/hostname', 100), preferredSpread('topology.kubernetes.io/zone', 50)] },
          },
          containers: [{
            name: 'manager',
            image: image(r, 'manager'),
            imagePullPolicy: r.text('manager.image.pullPolicy'),
            args: [
              'manager', `--health-addr=0.0.0.0:${r.value('manager.healthProbe.port')}`, `--metrics-addr=0.0.0.0:${r.value('manager.metrics.port')}`,
              `--leader-election-namespace=${ns}`, `--log-level=${r.value('manager.log.level')}`, `--feature-gates=${r.value('featureGates')}`,
            ],
            env: [
              { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
              { name: 'WEBHOOK_PORT', value: r.text('manager.webhook.port') },
              { name: 'NODE_OPTIONS', value: r.text('manager.nodeOptions') },
              ...Object.entries(mallocVariables).map(([key, name]) => ({ name, value: r.text(`manager.malloc.${key}`) })),
            ],
            ports: [
              { name: 'webhook-server', containerPort: r.value<number>('manager.webhook.port'), protocol: 'TCP' },
              { name: 'metrics', containerPort: r.value<number>('manager.metrics.port'), protocol: 'TCP' },
              { name: 'health', containerPort: r.value<number>('manager.healthProbe.port'), protocol: 'TCP' },
            ],
            // Ready only once the webhooks serve with the shared certificate (docs/design/manager.md §5).
            readinessProbe: { httpGet: { path: '/readyz', port: 'health' }, periodSeconds: 5 },
            resources: r.block('manager.resources'),
            securityContext: nonRoot,
          }],
        },
      },
    },
  };
}

export function daemonDaemonSet(r: ValueReader): Record<string, unknown> {
  const labels = { 'control-plane': 'daemon' };
  return {
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kruise-daemon', namespace: r.text('installation.namespace'), labels },
    spec: {
      selector: { matchLabels: labels },
      minReadySeconds: 3,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: 'kruise-daemon',
          hostNetwork: true,
          dnsPolicy: 'ClusterFirstWithHostNet',
          terminationGracePeriodSeconds: 10,
          tolerations: [{ operator: 'Exists' }],
          imagePullSecrets: r.block('imagePullSecrets'),
          nodeSelector: r.block('daemon.nodeSelector'),
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'type', operator: 'NotIn', values: ['virtual-kubelet'] }] }] } } },
          containers: [{
            name: 'daemon',
            image: image(r, 'manager'),
            imagePullPolicy: r.text('manager.image.pullPolicy'),
            args: [
              'daemon', `--addr=:${r.value('daemon.port')}`, '--var-run-dir=/hostvarrun', `--socket-file=${r.value('daemon.socketFile')}`,
              `--log-level=${r.value('daemon.log.level')}`, `--feature-gates=${r.value('featureGates')}`,
            ],
            env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }, ...r.listItems('daemon.extraEnvs')],
            livenessProbe: { httpGet: { path: '/healthz', port: r.value<number>('daemon.port') }, initialDelaySeconds: 60, periodSeconds: 10 },
            resources: r.block('daemon.resources'),
            volumeMounts: [{ name: 'runtime-socket', mountPath: '/hostvarrun', readOnly: true }],
          }],
          volumes: [{ name: 'runtime-socket', hostPath: { path: r.text('daemon.socketLocation'), type: '' } }],
        },
      },
    },
  };
}
