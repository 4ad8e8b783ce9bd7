/**
 * ContainerRecreateRequest v1alpha1 ⇄ v1beta1 (docs/design/kruise-api.md §7). v1alpha1 keeps in two
 * annotations what v1beta1 has as status fields: `crr.apps.kruise.io/sync-container-statuses` (JSON
 * list) ⇄ `status.containerStatusSnapshot`, and `crr.apps.kruise.io/unready-acquired` (RFC 3339)
 * ⇄ condition PreRecreateGrace=True with that lastTransitionTime. An annotation that does not parse
 * stays an annotation (upstream ignores it too).
 */
import type { KObject } from '../../meta.js';
import {
  CRRPreRecreateGraceCondition, CRRSyncContainerStatusesAnnotation, CRRUnreadyAcquiredKey,
} from '../ops/containerrecreaterequest.js';
import {
  children, deleteMetaValue, ensureChild, isObj, metaValue, setMetaValue, statusOf, type KindConversion, type MetaLike, type Obj,
} from './helpers.js';

/** One snapshot entry as Go serializes it: name, ready, restartCount, then containerID if set. */
function snapshotEntry(e: Obj): Obj {
  return {
    name: typeof e.name === 'string' ? e.name : '',
    ready: e.ready === true,
    restartCount: typeof e.restartCount === 'number' ? e.restartCount : 0,
    ...(typeof e.containerID === 'string' && e.containerID !== '' ? { containerID: e.containerID } : {}),
  };
}

function parseSnapshot(raw: string): Obj[] | undefined {
  try {
    const list: unknown = JSON.parse(raw);
    return Array.isArray(list) && list.every(isObj) ? list.map(snapshotEntry) : undefined;
  } catch {
    return undefined;
  }
}

/** metav1.Time as Go writes it: RFC 3339 in UTC, whole seconds. */
function rfc3339(raw: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(raw)) return undefined;
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function toHub(obj: KObject): KObject {
  const meta = (obj.metadata ??= {}) as MetaLike;
  const rawSnapshot = metaValue(meta, 'annotations', CRRSyncContainerStatusesAnnotation);
  const snapshot = rawSnapshot ? parseSnapshot(rawSnapshot) : undefined;
  const rawTime = metaValue(meta, 'annotations', CRRUnreadyAcquiredKey);
  const time = rawTime ? rfc3339(rawTime) : undefined;
  if (!snapshot && !time) return obj;
  const status = ensureChild(obj, 'status');
  if (snapshot) {
    status.containerStatusSnapshot = snapshot;
    deleteMetaValue(meta, 'annotations', CRRSyncContainerStatusesAnnotation);
  }
  if (time) {
    status.conditions = [{
      type: CRRPreRecreateGraceCondition, status: 'True', reason: CRRPreRecreateGraceCondition, message: '', lastTransitionTime: time,
    }];
    deleteMetaValue(meta, 'annotations', CRRUnreadyAcquiredKey);
  }
  return obj;
}

function fromHub(obj: KObject): KObject {
  const status = statusOf(obj);
  if (!status) return obj;
  const meta = (obj.metadata ??= {}) as MetaLike;
  if (Array.isArray(status.containerStatusSnapshot)) {
    const entries = status.containerStatusSnapshot.filter(isObj).map(snapshotEntry);
    setMetaValue(meta, 'annotations', CRRSyncContainerStatusesAnnotation, JSON.stringify(entries));
  }
  const grace = children(status, 'conditions').find((c) => c.type === CRRPreRecreateGraceCondition && c.status === 'True');
  const time = typeof grace?.lastTransitionTime === 'string' ? rfc3339(grace.lastTransitionTime) : undefined;
  if (time) setMetaValue(meta, 'annotations', CRRUnreadyAcquiredKey, time);
  const had = Object.keys(status).length;
  delete status.containerStatusSnapshot;
  delete status.conditions;
  // A status that only held the moved fields did not exist in v1alpha1.
  if (had > 0 && Object.keys(status).length === 0) delete obj.status;
  return obj;
}

export const containerRecreateRequestConversion: KindConversion = {
  group: 'apps.kruise.io',
  kind: 'ContainerRecreateRequest',
  spokes: { v1alpha1: { toHub, fromHub } },
};
