import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { chooseAndRecord, chooseWithoutStatus, injectSubset, ordinalOf, workloadReplicas, type Spread } from './index.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { Jobs } from '../../api/resource-type.js';

const term = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });
function ws(subsets: Spread['spec']['subsets'], extra: Partial<Spread['spec']> = {}): Spread {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'WorkloadSpread', metadata: { name: 'ws', namespace: 'n', uid: 'u' }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets, ...extra } } as Spread;
}
const pod = (name?: string, spec: Partial<Pod['spec']> = {}): Pod => ({ metadata: { ...(name && { name }), namespace: 'n' }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } }) as Pod;
let uid = 0;
const newUid = () => `uid-${++uid}`;

describe('subset choice', () => {
  test('first subset with room, recording creatingPods; unbounded subsets write nothing; none left → no subset', () => {
    const spread = ws([{ name: 'a', maxReplicas: 1, requiredNodeSelector: term('a') }, { name: 'b', maxReplicas: '50%' }]);
    const first = chooseAndRecord(spread, pod('p1'), 'v', 4, 'T', newUid);
    assert.equal(first.choice?.subset.name, 'a');
    assert.equal(first.changed, true);
    assert.deepEqual(spread.status!.versionedSubsetStatuses!.v[0], { name: 'a', replicas: 0, missingReplicas: 0, creatingPods: { p1: 'T' } });
    assert.equal(chooseAndRecord(spread, pod(), 'v', 4, 'T', newUid).choice?.generatedUid, 'uid-1', 'no name: a generated uid stands for the pod');
    assert.equal(chooseAndRecord(spread, pod('p3'), 'v', 4, 'T', newUid).choice?.subset.name, 'b');
    assert.equal(chooseAndRecord(spread, pod('p4'), 'v', 4, 'T', newUid).choice, undefined, 'b is 50% of 4 = 2, both taken');
    assert.deepEqual(chooseAndRecord(spread, pod('p1'), 'v', 4, 'T', newUid), { choice: { subset: spread.spec.subsets[0] }, changed: false }, 'a recorded name keeps its subset');
  });

  test('a Schedulable=False subset is skipped', () => {
    const spread = ws([{ name: 'a', maxReplicas: 5 }, { name: 'b' }]);
    spread.status = { subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 5, conditions: [{ type: 'Schedulable', status: 'False', reason: 'PodUnschedulable', message: '', lastTransitionTime: 'T' }] }] };
    assert.equal(chooseAndRecord(spread, pod('p'), 'v', 5, 'T', newUid).choice?.subset.name, 'b');
  });

  test('StatefulSet ordinals walk the cumulative maxReplicas; a lone unbounded subset needs no status', () => {
    const sts = ws([{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 1 }], { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' } });
    assert.deepEqual(['web-0', 'web-1', 'web-2', 'web-3'].map((n) => chooseWithoutStatus(sts, pod(n))?.subset?.name), ['a', 'a', 'b', undefined]);
    assert.equal(ordinalOf('web-12'), 12);
    assert.equal(chooseWithoutStatus(ws([{ name: 'only' }]), pod('x'))?.subset?.name, 'only');
    assert.equal(chooseWithoutStatus(ws([{ name: 'a', maxReplicas: 1 }]), pod('x')), undefined);
  });
});

describe('injection', () => {
  test('required term ANDed into every existing term, tolerations and preferred appended, patch merged, priority cleared', () => {
    const p = pod('p', {
      priority: 5, priorityClassName: 'low',
      affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } } },
      tolerations: [{ key: 't', operator: 'Exists' }],
    });
    const out = injectSubset(p, {
      name: 'a', requiredNodeSelector: term('a'), tolerations: [{ key: 'spot', operator: 'Exists' }],
      preferredNodeSelector: [{ weight: 10, preference: term('b') }],
      patch: { metadata: { labels: { tier: 'a' } }, spec: { priorityClassName: 'high' } },
    } as never, { name: 'ws', subset: 'a' });
    assert.deepEqual(out.spec.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms, [
      { matchExpressions: [{ key: 'x', operator: 'Exists' }, ...term('a').matchExpressions] },
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }], matchExpressions: term('a').matchExpressions },
    ]);
    assert.deepEqual(out.spec.tolerations, [{ key: 't', operator: 'Exists' }, { key: 'spot', operator: 'Exists' }]);
    assert.deepEqual(out.spec.affinity!.nodeAffinity!.preferredDuringSchedulingIgnoredDuringExecution, [{ weight: 10, preference: term('b') }]);
    assert.equal(out.metadata.labels?.tier, 'a');
    assert.equal(out.spec.priorityClassName, 'high');
    assert.equal(out.spec.priority, undefined);
    assert.equal(out.metadata.annotations!['apps.kruise.io/matched-workloadspread'], '{"name":"ws","subset":"a"}');
  });
});

test('workload replicas: parallelism for Jobs, replicasPathList sums', () => {
  assert.equal(workloadReplicas(ws([]), Jobs, { metadata: {}, spec: { parallelism: 3 } } as never), 3);
  const filtered = ws([], { targetFilter: { replicasPathList: ['spec.replicas', 'spec.pools.1.size'] } });
  assert.equal(workloadReplicas(filtered, CloneSets, { metadata: {}, spec: { replicas: 2, pools: [{ size: 1 }, { size: 4 }] } } as never), 6);
});
