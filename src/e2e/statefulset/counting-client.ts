/**
 * A Client wrapper for the controller under test that records every pod delete it issues (name
 * and the UID precondition), so tests can assert that no pod was ever deleted twice, across
 * manager restarts too (one recorder shared by every manager's controller).
 */
import { Pods, type ResourceType } from '../../api/resource-type.js';
import type { Client, DeleteOptions } from '../../client/client.js';

export interface DeleteRecord {
  name: string;
  uid?: string;
}

export class DeleteRecorder {
  readonly deletes: DeleteRecord[] = [];

  wrap(client: Client): Client {
    const deletes = this.deletes;
    return {
      get: (t, ns, name) => client.get(t, ns, name),
      list: (t, o) => client.list(t, o),
      watch: (t, o, cb) => client.watch(t, o, cb),
      create: (t, obj, o) => client.create(t, obj, o),
      update: (t, obj, o) => client.update(t, obj, o),
      updateStatus: (t, obj, o) => client.updateStatus(t, obj, o),
      patch: (t, ns, name, type, body, o) => client.patch(t, ns, name, type, body, o),
      createSubresource: (t, ns, name, sub, body) => client.createSubresource(t, ns, name, sub, body),
      async delete(t: ResourceType, ns: string | undefined, name: string, o?: DeleteOptions) {
        if (t.resource === Pods.resource && t.group === Pods.group) deletes.push({ name, uid: o?.preconditions?.uid });
        return client.delete(t, ns, name, o);
      },
    } as Client;
  }

  /** UIDs the controller asked to delete more than once. */
  deletedTwice(): string[] {
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const d of this.deletes) {
      const id = d.uid ?? `name:${d.name}`;
      if (seen.has(id)) twice.add(id);
      seen.add(id);
    }
    return [...twice];
  }

  deletesOf(prefix: string): DeleteRecord[] {
    return this.deletes.filter((d) => d.name.startsWith(prefix));
  }
}
