/**
 * The daemon's writes to a request's status (docs/design/container-recreate.md §4.2). Each write
 * remembers the resourceVersion it produced, so the next pass does not act on a cache older than
 * its own write; after 10 s the cache is trusted anyway (a lost event must not wedge the pod).
 */
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import type { Clock } from '../../machinery/clock.js';
import { rfc3339 } from '../../machinery/time.js';
import { ResourceVersionExpectations } from '../../runtime/expectations.js';
import type { RecreateState } from './recreate-states.js';

export type CRR = ContainerRecreateRequest & KObject;
const key = (crr: CRR) => `${crr.metadata.namespace}/${crr.metadata.name}`;

export class CRRStatusWriter {
  private readonly written: ResourceVersionExpectations;

  constructor(private readonly client: Client, private readonly clock: Clock) {
    this.written = new ResourceVersionExpectations({ clock, timeoutMs: 10_000 });
  }

  /** The cached copy is at least as new as our last write of it. */
  upToDate(crr: CRR): boolean {
    return this.written.isUpdatedSatisfied(key(crr), crr);
  }

  forget(crr: CRR): void {
    this.written.delete(key(crr));
  }

  async setPhase(crr: CRR, phase: 'Pending' | 'Recreating'): Promise<void> {
    this.remember(crr, await this.client.updateStatus(ContainerRecreateRequests, { ...crr, status: { ...crr.status, phase } }));
  }

  async setStates(crr: CRR, states: RecreateState[]): Promise<void> {
    const patch = { status: { containerRecreateStates: states } };
    this.remember(crr, await this.client.patch(ContainerRecreateRequests, crr.metadata.namespace, crr.metadata.name!, 'merge', patch, { subresource: 'status' }));
  }

  async complete(crr: CRR, message: string, states?: RecreateState[]): Promise<void> {
    const status = {
      ...crr.status, phase: 'Completed' as const, completionTime: rfc3339(this.clock.now()), message,
      ...(states ? { containerRecreateStates: states } : {}),
    };
    this.remember(crr, await this.client.updateStatus(ContainerRecreateRequests, { ...crr, status }));
  }

  private remember(crr: CRR, written: KObject): void {
    this.written.expectUpdated(key(crr), written);
  }
}
