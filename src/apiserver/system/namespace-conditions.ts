/**
 * The conditions the namespace controller keeps on a Terminating namespace, worded as
 * kube-controller-manager's namespace deleter words them (`kubectl describe ns` shows them).
 */
import type { KObject } from '../../api/meta.js';

/** What one deletion pass left behind: instances per `resource.group`, and per finalizer. */
export interface ContentLeft {
  byResource: Map<string, number>;
  byFinalizer: Map<string, number>;
}

export interface NamespaceCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

/** In the order kube writes them; the first three always report success here (no discovery or deletion failures). */
const settled: [type: string, reason: string, message: string][] = [
  ['NamespaceDeletionDiscoveryFailure', 'ResourcesDiscovered', 'All resources successfully discovered'],
  ['NamespaceDeletionGroupVersionParsingFailure', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
  ['NamespaceDeletionContentFailure', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
];

const counted = (counts: Map<string, number>, suffix: string): string =>
  [...counts].filter(([, n]) => n > 0).map(([key, n]) => `${key} ${suffix.replace('%d', String(n))}`).sort().join(', ');

export function deletionConditions(left: ContentLeft): NamespaceCondition[] {
  const resources = counted(left.byResource, 'has %d resource instances');
  const finalizers = counted(left.byFinalizer, 'in %d resource instances');
  return [
    ...settled.map(([type, reason, message]) => ({ type, status: 'False', reason, message })),
    resources
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${finalizers}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/**
 * The wanted conditions with transition times: kept from the current condition of the same type
 * when its status did not change. Undefined when nothing a reader sees would change.
 */
export function mergeConditions(ns: KObject, wanted: NamespaceCondition[], now: string): NamespaceCondition[] | undefined {
  const current = ((ns.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions ?? []);
  const byType = new Map(current.map((c) => [c.type, c]));
  const same = wanted.every((w) => {
    const c = byType.get(w.type);
    return c && c.status === w.status && c.reason === w.reason && c.message === w.message;
  });
  if (same && current.length === wanted.length) return undefined;
  return wanted.map((w) => {
    const c = byType.get(w.type);
    return { ...w, lastTransitionTime: c && c.status === w.status && c.lastTransitionTime ? c.lastTransitionTime : now };
  });
}
