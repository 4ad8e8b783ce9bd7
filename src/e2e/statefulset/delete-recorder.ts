/**
 * Records every pod delete the manager issues (name and the UID precondition), so tests can assert
 * that no pod was ever deleted twice, across manager restarts too (one recorder for every manager).
 */
import { isPodCall, type Around } from '../../testing/recording-client.js';

export interface DeleteRecord {
  name: string;
  uid?: string;
}

export class DeleteRecorder {
  readonly deletes: DeleteRecord[] = [];

  /** The `around` hook for the manager's client. */
  readonly around: Around = (call, send) => {
    if (isPodCall(call) && call.verb === 'delete') this.deletes.push({ name: call.name, uid: call.deleteOptions?.preconditions?.uid });
    return send();
  };

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
