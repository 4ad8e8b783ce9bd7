/**
 * IPv4 addresses for pod sandboxes from the node's pod CIDR (what a CNI IPAM plugin does). The
 * addresses are data only: nothing ever listens on or dials them. Released addresses go to the back
 * of the line so a new pod rarely reuses the IP of one that just left, as host-local IPAM behaves.
 */

export function ipToInt(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`invalid IPv4 address ${JSON.stringify(ip)}`);
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function parseCidr(cidr: string): { base: number; prefix: number } {
  const [ip, bits] = cidr.split('/');
  const prefix = Number(bits);
  if (!Number.isInteger(prefix) || prefix < 1 || prefix > 30) throw new Error(`invalid pod CIDR ${JSON.stringify(cidr)}`);
  const size = 2 ** (32 - prefix);
  const base = ipToInt(ip) - (ipToInt(ip) % size);
  return { base, prefix };
}

export interface IpPoolState {
  cidr: string;
  next: number;
  free: number[];
  used: number[];
}

export class IpPool {
  private readonly base: number;
  private readonly size: number;
  /** Next never-used offset; released addresses queue up in `free`. */
  private next = 2;
  private readonly free: number[] = [];
  private readonly used = new Set<number>();

  /** Hands out every address of `cidr` except the network, gateway (.1) and broadcast addresses. */
  constructor(readonly cidr: string) {
    const { base, prefix } = parseCidr(cidr);
    this.base = base;
    this.size = 2 ** (32 - prefix);
  }

  allocate(): string {
    let n: number | undefined;
    if (this.next < this.size - 1) n = this.base + this.next++;
    else n = this.free.shift();
    if (n === undefined) throw new Error(`no free IP addresses left in ${this.cidr}`);
    this.used.add(n);
    return intToIp(n);
  }

  release(ip: string): void {
    const n = ipToInt(ip);
    if (!this.used.delete(n)) return;
    this.free.push(n);
  }

  get allocated(): number {
    return this.used.size;
  }

  /** The pool's state, for a runtime that keeps its state across restarts. */
  snapshot(): IpPoolState {
    return { cidr: this.cidr, next: this.next, free: [...this.free], used: [...this.used] };
  }

  static restore(state: IpPoolState): IpPool {
    const pool = new IpPool(state.cidr);
    pool.next = state.next;
    pool.free.push(...state.free);
    for (const n of state.used) pool.used.add(n);
    return pool;
  }
}
