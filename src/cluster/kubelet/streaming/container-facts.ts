/**
 * What a command run in a simulated container can learn about it (docs/design/streaming.md §3):
 * the environment a real one would have (PATH and HOSTNAME first, the container's own variables,
 * HOME last) and the files the kubelet writes into every pod (`/etc/hostname`, `/etc/hosts`,
 * `/etc/resolv.conf`, the service account's namespace).
 */
import type { Pod } from '../../../api/core/index.js';
import type { ContainerConfig } from '../../../daemon/cri/types.js';
import type { ContainerFacts } from '../behaviour/transcript.js';

const path = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function containerEnv(pod: Pod, config: ContainerConfig | undefined): Map<string, string> {
  const env = new Map<string, string>([['PATH', path], ['HOSTNAME', hostnameOf(pod)]]);
  for (const e of config?.envs ?? []) env.set(e.key, e.value);
  if (!env.has('HOME')) env.set('HOME', '/root');
  return env;
}

/** `volumeFiles`: the container's projected-volume files (the service account token), by path. */
export function containerFacts(pod: Pod, startedAtMs: number, volumeFiles?: Map<string, string>): ContainerFacts {
  const hostname = hostnameOf(pod);
  const ns = pod.metadata.namespace ?? 'default';
  const fqdn = pod.spec.subdomain ? `${hostname}.${pod.spec.subdomain}.${ns}.svc.cluster.local\t${hostname}` : hostname;
  const hosts = [
    '# Kubernetes-managed hosts file.', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters', `${pod.status?.podIP ?? '127.0.0.1'}\t${fqdn}`, '',
  ].join('\n');
  const files = new Map([
    ['/etc/hostname', `${hostname}\n`],
    ['/etc/hosts', hosts],
    ['/etc/resolv.conf', `search ${ns}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`],
    ['/var/run/secrets/kubernetes.io/serviceaccount/namespace', ns],
    ...(volumeFiles ?? []),
  ]);
  return { hostname, files, startedAtMs, exactEnv: true };
}

function hostnameOf(pod: Pod): string {
  return pod.spec.hostname ?? pod.metadata.name ?? '';
}
