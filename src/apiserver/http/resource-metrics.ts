/**
 * `metrics.k8s.io/v1beta1` served by the API server itself from simulated usage, in place of
 * metrics-server (docs/design/autoscaling.md §3): a Running pod's containers each use what its
 * `metrics.kruise.io/usage` annotation says (`cpu=250m,memory=64Mi`, default zero); a node uses
 * the sum over its Running pods. Only get and list, as metrics-server answers.
 */
import type { KObject } from '../../api/meta.js';
import { errors, StatusError } from '../../machinery/errors.js';
import { formatQuantity, sumQuantities } from '../../machinery/quantity.js';
import { rfc3339 } from '../../machinery/time.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceRequestInfo } from './request-info.js';
import type { ApiResponse } from '../../api/request.js';

export const usageAnnotation = 'metrics.kruise.io/usage';
const apiVersion = 'metrics.k8s.io/v1beta1';
const window = '15s';

/** `cpu=250m,memory=64Mi` -> a resource list; malformed entries are skipped. */
export function parseUsage(text: string | undefined): Record<string, string> {
  const usage: Record<string, string> = { cpu: '0', memory: '0' };
  for (const part of (text ?? '').split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    if ((key === 'cpu' || key === 'memory') && value) usage[key] = value;
  }
  return usage;
}

type Pod = KObject & { spec?: { nodeName?: string; containers?: { name: string }[] }; status?: { phase?: string } };

function podMetrics(pod: Pod, now: string): KObject {
  const usage = parseUsage(pod.metadata.annotations?.[usageAnnotation]);
  return {
    kind: 'PodMetrics', apiVersion,
    metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace, creationTimestamp: now, labels: pod.metadata.labels },
    timestamp: now, window,
    containers: (pod.spec?.containers ?? []).map((c) => ({ name: c.name, usage: { ...usage } })),
  } as KObject;
}

function nodeMetrics(node: KObject, pods: Pod[], now: string): KObject {
  const containers = pods.filter((p) => p.spec?.nodeName === node.metadata.name)
    .flatMap((p) => (p.spec?.containers ?? []).map(() => parseUsage(p.metadata.annotations?.[usageAnnotation])));
  const cpu = formatQuantity(sumQuantities(containers.map((u) => u.cpu)));
  const memory = formatQuantity(sumQuantities(containers.map((u) => u.memory)));
  return {
    kind: 'NodeMetrics', apiVersion,
    metadata: { name: node.metadata.name, creationTimestamp: now, labels: node.metadata.labels },
    timestamp: now, window, usage: { cpu, memory },
  } as KObject;
}

export async function serveResourceMetrics(registry: Registry, info: ResourceRequestInfo, query: URLSearchParams, nowMs: number): Promise<ApiResponse> {
  if (info.verb !== 'get' && info.verb !== 'list') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
  const now = rfc3339(nowMs);
  const lookup = (plural: string) => registry.table.lookup('', 'v1', plural)!;
  const labelSelector = query.get('labelSelector') ?? undefined;
  const running = async (ns: string | undefined, selector?: string) => ((await registry.list(lookup('pods'), ns, { labelSelector: selector })).items as Pod[])
    .filter((p) => p.status?.phase === 'Running');
  const notFound = (name: string) => new StatusError(404, 'NotFound', `${info.resource}.metrics.k8s.io "${name}" not found`, { name, group: 'metrics.k8s.io', kind: info.resource });
  if (info.resource === 'pods') {
    if (info.name) {
      const pod = (await running(info.namespace)).find((p) => p.metadata.name === info.name);
      if (!pod) throw notFound(info.name);
      return { code: 200, body: podMetrics(pod, now) };
    }
    const items = (await running(info.namespace, labelSelector)).map((p) => podMetrics(p, now));
    return { code: 200, body: { kind: 'PodMetricsList', apiVersion, metadata: {}, items } };
  }
  const pods = await running(undefined);
  const nodes = (await registry.list(lookup('nodes'), undefined, { labelSelector })).items;
  if (info.name) {
    const node = nodes.find((n) => n.metadata.name === info.name);
    if (!node) throw notFound(info.name);
    return { code: 200, body: nodeMetrics(node, pods, now) };
  }
  return { code: 200, body: { kind: 'NodeMetricsList', apiVersion, metadata: {}, items: nodes.map((n) => nodeMetrics(n, pods, now)) } };
}
