/**
 * The Node labels a kubelet may not set or change (docs/design/authorization.md §17): anything in the
 * `node-restriction.kubernetes.io/` namespace, and any other `kubernetes.io` or `k8s.io` label that
 * is not one of the well-known labels kubelets set themselves (hostname, topology, instance type, OS,
 * architecture, and the `kubelet.kubernetes.io/` and `node.kubernetes.io/` namespaces).
 */
const kubeletLabels = new Set([
  'kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type', 'node.kubernetes.io/instance-type',
  'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
]);
const kubeletNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
const restrictedNamespace = 'node-restriction.kubernetes.io';

const namespaceOf = (label: string) => (label.includes('/') ? label.slice(0, label.indexOf('/')) : '');
const within = (ns: string, domain: string) => ns === domain || ns.endsWith(`.${domain}`);

function forbidden(label: string): boolean {
  const ns = namespaceOf(label);
  if (within(ns, restrictedNamespace)) return true;
  const kubernetes = within(ns, 'kubernetes.io') || within(ns, 'k8s.io');
  return kubernetes && !kubeletLabels.has(label) && !kubeletNamespaces.some((k) => within(ns, k));
}

/** Labels added, changed or removed between `old` and `next` that a kubelet may not touch, sorted. */
export function forbiddenNodeLabels(next: Record<string, string>, old: Record<string, string>): string[] {
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(next)) if (old[k] !== v) modified.add(k);
  for (const k of Object.keys(old)) if (!(k in next)) modified.add(k);
  return [...modified].filter(forbidden).sort();
}
