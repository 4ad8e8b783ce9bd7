/**
 * The coordination.k8s.io/v1 Lease record leader election reads and writes, and the pure step
 * "this candidate holds the lease as of now" (acquire or renew).
 */
import type { Lease } from '../api/core/index.js';
import { microTime } from '../machinery/time.js';


/**
 * `lease` as held by `identity` at `now`: a renewal keeps acquireTime and the transition count; a
 * takeover (from another holder, or from nobody after a release) sets acquireTime and counts one
 * transition. A new lease (no spec yet) starts at zero transitions.
 */
export function takeOver(lease: Lease, identity: string, leaseDurationSeconds: number, now: number): Lease {
  const old = lease.spec ?? {};
  const renewing = old.holderIdentity === identity;
  const transitions = old.leaseTransitions ?? 0;
  return {
    ...lease,
    spec: {
      ...old,
      holderIdentity: identity,
      leaseDurationSeconds,
      acquireTime: renewing && old.acquireTime ? old.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: renewing || lease.spec === undefined ? transitions : transitions + 1,
    },
  };
}

export function newLease(namespace: string, name: string): Lease {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { namespace, name } };
}

/** What a leader writes on graceful shutdown (client-go's release): no holder, so anyone may take it. */
export function released(lease: Lease, now: number): Lease {
  const time = microTime(now);
  return { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: time, renewTime: time } };
}
