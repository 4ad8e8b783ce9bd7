/**
 * The recorder: the Observer routes the test's own pod and CloneSet events to the watched
 * CloneSets, and the manager's writes pass recordDecisions, which reports every pod create and
 * delete to them before sending it (Decisions), and when each pod delete or update was sent.
 * Faults fake controller bugs once, so the self-tests can show that the checks catch them.
 */
import { CloneSets } from '../../../api/kruise/resource-types.js';
import type { CloneSet } from '../../../api/kruise/workloads/cloneset.js';
import { Pods } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { isNotFound } from '../../../machinery/errors.js';
import { isPodCall, type Around, type WriteCall } from '../../../testing/recording-client.js';
import { isLabelledForDelete, type Pod } from './model.js';
import { Watched } from './watched.js';

/** Controller bugs the manager's client fakes once, by CloneSet name. */
export interface Faults {
  /** The next pod create is sent twice (under another name). */
  duplicateCreate?: string;
  /** The next pod delete also deletes another pod not specified for deletion. */
  extraDelete?: string;
}

export class Observer {
  private readonly sets = new Map<string, Watched>();
  readonly faults: Faults = {};

  watch(name: string): Watched {
    const w = new Watched(name);
    this.sets.set(name, w);
    return w;
  }

  unwatch(name: string): void {
    this.sets.delete(name);
  }

  /** The CloneSet a pod name belongs to (`<set>-<5 chars>`). */
  forPodName(name: string): Watched | undefined {
    return this.sets.get(name.slice(0, name.lastIndexOf('-')));
  }

  onPod(pod: Pod, deleted: boolean): void {
    const owner = pod.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'CloneSet');
    if (owner) this.sets.get(owner.name)?.onPod(pod, deleted);
  }

  onCloneSet(cs: CloneSet): void {
    this.sets.get(cs.metadata.name!)?.onCloneSet(cs);
  }
}

/**
 * The manager's writes as the observer sees them: each pod create and delete is checked by its
 * CloneSet's Decisions before it is sent and confirmed after; a planted fault adds one bad write.
 */
export function recordDecisions(observer: Observer): Around {
  const around: Around = async (call, send, inner) => {
    if (!isPodCall(call)) return send();
    if (call.verb === 'create') return create(call, send, inner);
    if (call.verb === 'delete') return remove(call, send, inner);
    // an in-place update makes the pod unavailable: like a delete, it may land after a flap began
    const w = observer.forPodName(call.name);
    const uid = w?.pods.get(call.name)?.metadata.uid;
    if (uid) w?.invariants.disruptionSent(uid);
    return send();
  };

  async function create(call: WriteCall, send: () => Promise<unknown>, inner: Client): Promise<unknown> {
    const w = observer.forPodName(call.name);
    const done = w?.decisions.beforeCreate(call.object as unknown as Pod);
    let out: unknown;
    try {
      out = await send();
      done?.(true);
    } catch (e) {
      done?.(false);
      throw e;
    }
    if (w && observer.faults.duplicateCreate === w.name) {
      observer.faults.duplicateCreate = undefined;
      const twin = { ...call.object!, metadata: { ...call.object!.metadata, name: `${call.name.slice(0, -1)}${call.name.endsWith('z') ? 'x' : 'z'}` } };
      await around({ ...call, name: twin.metadata.name, object: twin }, () => inner.create(call.type, twin), inner);
    }
    return out;
  }

  async function remove(call: WriteCall, send: () => Promise<unknown>, inner: Client): Promise<unknown> {
    const { namespace, name } = call;
    const w = observer.forPodName(name);
    const fresh = async () => ({
      pod: await inner.get<Pod>(Pods, namespace, name).catch(() => undefined),
      podsToDelete: await inner.get<CloneSet>(CloneSets, namespace, w!.name).then((cs) => cs.spec?.scaleStrategy?.podsToDelete ?? [], () => []),
    });
    const done = await w?.decisions.beforeDelete(name, call.deleteOptions?.preconditions?.uid, fresh);
    const uid = call.deleteOptions?.preconditions?.uid ?? w?.pods.get(name)?.metadata.uid;
    if (uid) w?.invariants.disruptionSent(uid);
    try {
      await send();
      done?.(true);
    } catch (e) {
      done?.(isNotFound(e));
      throw e;
    }
    const other = w && observer.faults.extraDelete === w.name ? w.live().find((p) => p.metadata.name !== name && !isLabelledForDelete(p)) : undefined;
    if (other) {
      observer.faults.extraDelete = undefined;
      const options = { preconditions: { uid: other.metadata.uid } };
      await around({ ...call, name: other.metadata.name!, deleteOptions: options }, () => inner.delete(call.type, namespace, other.metadata.name!, options), inner);
    }
    return undefined;
  }

  return around;
}
