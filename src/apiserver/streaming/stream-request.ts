/**
 * The checks kube-apiserver makes before it dials the kubelet for pods/exec, attach and portforward
 * (its streamLocation): the pod is bound to a node, the container is one of the pod's (or the only
 * one), and exec and attach ask for at least one stream (docs/design/streaming.md §1).
 */
import type { Pod } from '../../api/core/index.js';
import { errors } from '../../machinery/errors.js';

export interface CommandRequest {
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

const flag = (q: URLSearchParams, name: string) => q.get(name) === 'true' || q.get(name) === '1';

export function commandRequest(pod: Pod, query: URLSearchParams, exec: boolean): CommandRequest {
  const name = pod.metadata.name!;
  if (!pod.spec.nodeName) throw errors.badRequest(`pod ${name} does not have a host assigned`);
  const req = {
    container: containerOf(pod, query.get('container') ?? ''), command: query.getAll('command'),
    stdin: flag(query, 'stdin'), stdout: flag(query, 'stdout'), stderr: flag(query, 'stderr'), tty: flag(query, 'tty'),
  };
  if (!req.stdin && !req.stdout && !req.stderr) throw errors.badRequest('you must specify at least 1 of stdin, stdout, stderr');
  if (exec && req.command.length === 0) throw errors.badRequest('you must specify at least 1 command');
  if (req.tty) req.stderr = false; // a terminal merges stderr into stdout
  return req;
}

function containerOf(pod: Pod, asked: string): string {
  const spec = pod.spec;
  const all = [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])].map((c) => c.name);
  if (asked) {
    if (!all.includes(asked)) throw errors.badRequest(`container ${asked} is not valid for pod ${pod.metadata.name}`);
    return asked;
  }
  if (spec.containers.length === 1) return spec.containers[0].name;
  throw errors.badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${all.join(' ')}]`);
}

/** port-forward: bound, and (for the ports named in the URL) valid port numbers. */
export function portForwardPorts(pod: Pod, query: URLSearchParams): number[] {
  if (!pod.spec.nodeName) throw errors.badRequest(`pod ${pod.metadata.name} does not have a host assigned`);
  return query.getAll('ports').flatMap((p) => p.split(',')).map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw errors.badRequest(`unable to parse "${p}" as a port: invalid port`);
    return n;
  });
}
