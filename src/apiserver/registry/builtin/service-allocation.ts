/**
 * ClusterIP and NodePort allocation for Services. The addresses are data only (nothing dials them);
 * random choice over ~1M addresses keeps clashes unlikely without a shared allocation table.
 */
import type { KObject } from '../../../api/meta.js';

export const serviceCIDR = '10.96.0.0/12';
export const nodePortRange = { min: 30000, max: 32767 };

const cidrBase = (10 << 24) | (96 << 16); // 10.96.0.0
const cidrSize = 1 << 20; // /12
/** Upstream keeps the low band for static choices; dynamic allocation starts above it. */
const dynamicOffset = 256;

export interface ServiceAllocator {
  /** An address for a new Service (the `default/kubernetes` Service always gets the first one). */
  clusterIP(service: KObject): string;
  /** A node port not in `used`. */
  nodePort(used: Set<number>): number;
}

function ipFromOffset(offset: number): string {
  const n = cidrBase + offset;
  return [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
}

export function ipInServiceCIDR(ip: string): boolean {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const n = ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
  return n >= cidrBase && n < cidrBase + cidrSize;
}

/** `random` returns [0, 1), injectable for deterministic tests. */
export function createRandomAllocator(random: () => number = Math.random): ServiceAllocator {
  return {
    clusterIP(service) {
      if (service.metadata.namespace === 'default' && service.metadata.name === 'kubernetes') return ipFromOffset(1);
      const span = cidrSize - dynamicOffset - 1; // excludes the broadcast address
      return ipFromOffset(dynamicOffset + Math.floor(random() * span));
    },
    nodePort(used) {
      const span = nodePortRange.max - nodePortRange.min + 1;
      for (let attempt = 0; attempt < span; attempt++) {
        const port = nodePortRange.min + Math.floor(random() * span);
        if (!used.has(port)) return port;
      }
      for (let port = nodePortRange.min; port <= nodePortRange.max; port++) if (!used.has(port)) return port;
      return nodePortRange.min;
    },
  };
}
