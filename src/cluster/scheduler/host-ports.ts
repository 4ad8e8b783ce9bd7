import type { Container, PodSpec } from '../../api/core/index.js';
/**
 * Host ports in use on a node. Two ports clash when protocol and port are equal and the host IPs
 * are equal or either is the wildcard 0.0.0.0 (an empty hostIP means the wildcard, as upstream).
 */

export interface HostPort {
  ip: string;
  protocol: string;
  port: number;
}

const WILDCARD = '0.0.0.0';

/** The host ports a pod asks for (containers and init containers), normalised. */
export function podHostPorts(spec: PodSpec | undefined): HostPort[] {
  const out: HostPort[] = [];
  const collect = (cs: Container[] | undefined) => {
    for (const c of cs ?? []) {
      for (const p of c.ports ?? []) {
        if (!p.hostPort || p.hostPort <= 0) continue;
        out.push({ ip: p.hostIP || WILDCARD, protocol: p.protocol || 'TCP', port: p.hostPort });
      }
    }
  };
  collect(spec?.containers);
  collect(spec?.initContainers);
  return out;
}

/** A multiset of used host ports (a pod may be removed while another holds the same port). */
export class HostPortSet {
  /** `protocol/port` -> ip -> count */
  private readonly used = new Map<string, Map<string, number>>();

  get size(): number {
    return this.used.size;
  }

  add(ports: readonly HostPort[], sign: 1 | -1 = 1): void {
    for (const p of ports) {
      const key = `${p.protocol}/${p.port}`;
      let ips = this.used.get(key);
      if (!ips) this.used.set(key, (ips = new Map()));
      const n = (ips.get(p.ip) ?? 0) + sign;
      if (n > 0) ips.set(p.ip, n);
      else ips.delete(p.ip);
      if (ips.size === 0) this.used.delete(key);
    }
  }

  conflicts(p: HostPort): boolean {
    const ips = this.used.get(`${p.protocol}/${p.port}`);
    if (!ips) return false;
    if (p.ip === WILDCARD) return ips.size > 0;
    return ips.has(p.ip) || ips.has(WILDCARD);
  }

  anyConflict(ports: readonly HostPort[]): boolean {
    for (const p of ports) if (this.conflicts(p)) return true;
    return false;
  }
}
