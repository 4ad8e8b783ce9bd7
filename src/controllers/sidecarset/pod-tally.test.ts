import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Namespace, Pod } from '../../api/core/index.js';
import { SidecarSetHashAnnotation, SidecarSetInjectedListAnnotation } from '../../api/kruise/ops/sidecarset.js';
import type { SidecarSet } from '../../control/sidecarcontrol/index.js';
import type { Informer } from '../../runtime/informer.js';
import { PodTally } from './pod-tally.js';

const set = (hash: string, generation = 1): SidecarSet => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet',
  metadata: { name: 'agent', uid: 'u1', generation, annotations: { [SidecarSetHashAnnotation]: hash } },
  spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'agent', image: 'busybox' }] },
} as SidecarSet);

const pod = (name: string, hash: string, ready: boolean): Pod => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    name, namespace: 'default', labels: { app: 'web' },
    annotations: { [SidecarSetInjectedListAnnotation]: 'agent', [SidecarSetHashAnnotation]: JSON.stringify({ agent: { hash } }) },
  },
  spec: { containers: [{ name: 'main', image: 'nginx' }, { name: 'agent', image: 'busybox' }] },
  status: {
    phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    containerStatuses: ['main', 'agent'].map((n) => ({ name: n, image: n === 'main' ? 'nginx' : 'busybox', imageID: 'x', ready, restartCount: 0 })),
  },
} as Pod);

function harness(current: SidecarSet) {
  const sets = { get: () => current } as unknown as Informer<SidecarSet>;
  const namespaces = { get: () => ({ metadata: { name: 'default', labels: {} } }) } as unknown as Informer<Namespace>;
  const tally = new PodTally({ sets, namespaces });
  return { tally, handler: tally.podHandler(), setCurrent: (s: SidecarSet) => { current = s; } };
}

describe('PodTally', () => {
  test('a pod event re-judges only that pod; the counts match a full count', () => {
    const s = set('h1');
    const pods = Array.from({ length: 50 }, (_, i) => pod(`p${i}`, i < 30 ? 'h1' : 'h0', i % 5 !== 0));
    const { tally, handler } = harness(s);
    assert.deepEqual(tally.counts(s, () => pods), { matchedPods: 50, updatedPods: 30, readyPods: 40, updatedReadyPods: 24, resetting: 0 });
    assert.equal(tally.judged, 50);
    handler.onUpdate!(pods[0]!, pod('p0', 'h1', true));
    handler.onDelete!(pods[49]!);
    handler.onAdd!(pod('new', 'h0', false));
    assert.equal(tally.judged, 53, 'three events, three pods judged');
    assert.deepEqual(tally.counts(s, () => { throw new Error('not rebuilt'); }), { matchedPods: 50, updatedPods: 30, readyPods: 40, updatedReadyPods: 25, resetting: 0 });
  });

  test('a new hash on the SidecarSet rebuilds its tally from the pods', () => {
    const { tally, handler, setCurrent } = harness(set('h1'));
    const pods = [pod('a', 'h1', true), pod('b', 'h2', true)];
    assert.equal(tally.counts(set('h1'), () => pods).updatedPods, 1);
    setCurrent(set('h2', 2));
    handler.onUpdate!(pods[0]!, pods[0]!); // judged against a stale fingerprint: the tally is dropped
    assert.deepEqual(tally.counts(set('h2', 2), () => pods), { matchedPods: 2, updatedPods: 1, readyPods: 2, updatedReadyPods: 1, resetting: 0 });
  });
});
