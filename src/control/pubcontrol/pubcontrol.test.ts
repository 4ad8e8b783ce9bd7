import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { rfc3339 } from '../../machinery/time.js';
import { desiredAvailable, isNoProtect, isPubAvailable, isResizeOnly, isUnavailableChange, protectedOperations, pruneMaps, relatedPub, type PodUnavailableBudget } from './index.js';

const pod = (over: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...meta },
  spec: { containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '100m' } } }], ...over },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});
const pub = (spec: PodUnavailableBudget['spec'], status?: PodUnavailableBudget['status'], annotations?: Record<string, string>): PodUnavailableBudget =>
  ({ metadata: { name: 'b', namespace: 'n', annotations }, spec, status } as PodUnavailableBudget);

describe('how a PUB sees a pod', () => {
  test('binding, no-protect spellings, availability', () => {
    assert.equal(relatedPub(pod({}, { annotations: { 'kruise.io/related-pub': 'legacy' } })), 'legacy');
    assert.equal(relatedPub(pod({}, { annotations: { 'pub.kruise.io/related-pub': 'new', 'kruise.io/related-pub': 'legacy' } })), 'new');
    for (const v of ['true', 'True', 'TRUE', 't', 'T', '1']) assert.ok(isNoProtect(pod({}, { annotations: { 'pub.kruise.io/no-protect': v } })), v);
    assert.ok(!isNoProtect(pod({}, { annotations: { 'pub.kruise.io/no-protect': 'yes' } })));
    assert.ok(isPubAvailable(pod()));
    assert.ok(!isPubAvailable(pod({}, { labels: { 'unavailable-pod.kruise.io/drain': 'x' } })));
    assert.ok(!isPubAvailable(pod({}, { deletionTimestamp: rfc3339(Date.now()) })));
    const digest = `nginx@sha256:${'a'.repeat(64)}`;
    const p = pod({ containers: [{ name: 'c', image: digest }] });
    p.status!.containerStatuses = [{ name: 'c', image: digest, imageID: `docker.io/library/nginx@sha256:${'b'.repeat(64)}`, ready: true, restartCount: 0 } as never];
    assert.ok(!isPubAvailable(p), 'a digest image not yet running is inconsistent');
  });

  test('which updates can make a pod unavailable, and which are resizes', () => {
    const base = pod();
    assert.ok(!isUnavailableChange(base, pod({}, { labels: { tier: 'x' } })), 'metadata only');
    assert.ok(isUnavailableChange(base, pod({}, { labels: { 'unavailable-pod.kruise.io/x': 'y' } })), 'unavailable label added');
    assert.ok(isUnavailableChange(base, pod({ containers: [{ name: 'c', image: 'nginx:1.26' }] })));
    const cpu = pod({ containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '200m' } } }] });
    assert.ok(isResizeOnly(base, cpu));
    const restart = pod({ containers: [{ name: 'c', image: 'nginx:1.25', resources: { requests: { cpu: '200m' } }, resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'RestartContainer' }] }] });
    assert.ok(!isResizeOnly(base, restart), 'a resize that restarts is an update');
    assert.ok(!isResizeOnly(base, pod({ containers: [{ name: 'c', image: 'nginx:1.26', resources: { requests: { cpu: '200m' } } }] })));
  });
});

describe('the numbers of a PUB', () => {
  test('desiredAvailable rounds percents up', () => {
    assert.equal(desiredAvailable(pub({ maxUnavailable: 1 }), 4), 3);
    assert.equal(desiredAvailable(pub({ maxUnavailable: '20%' }), 5), 4);
    assert.equal(desiredAvailable(pub({ maxUnavailable: '30%' }), 5), 3);
    assert.equal(desiredAvailable(pub({ maxUnavailable: 9 }), 4), 0);
    assert.equal(desiredAvailable(pub({ minAvailable: '50%' }), 3), 2);
    assert.equal(desiredAvailable(pub({ minAvailable: 2 }), 3), 2);
  });

  test('protected operations: spec, else annotation, else the default three; RESIZE with UPDATE while vertical scaling is off', () => {
    assert.deepEqual([...protectedOperations(pub({}), true)].sort(), ['DELETE', 'EVICT', 'UPDATE']);
    assert.deepEqual([...protectedOperations(pub({}), false)].sort(), ['DELETE', 'EVICT', 'RESIZE', 'UPDATE']);
    assert.deepEqual([...protectedOperations(pub({}, undefined, { 'kruise.io/pub-protect-operations': 'EVICT' }), false)], ['EVICT']);
    assert.deepEqual([...protectedOperations(pub({ protectOperations: ['DELETE'] }, undefined, { 'kruise.io/pub-protect-operations': 'EVICT' }), false)], ['DELETE']);
  });

  test('maps keep active pods until their timeouts; the earliest expiry is the recheck', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const maps = pruneMaps(pub({}, {
      totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1,
      disruptedPods: { old: '2026-01-01T00:00:30Z', fresh: '2026-01-01T00:00:55Z', gone: '2026-01-01T00:00:59Z' },
      unavailablePods: { upd: '2026-01-01T00:00:55Z', stale: '2026-01-01T00:00:40Z' },
    }), new Set(['old', 'fresh', 'upd', 'stale']), now);
    assert.deepEqual(maps.disruptedPods, { fresh: '2026-01-01T00:00:55Z' });
    assert.deepEqual(maps.unavailablePods, { upd: '2026-01-01T00:00:55Z' });
    assert.deepEqual(maps.notDeleted, ['old']);
    assert.equal(maps.recheckMs, 5_001);
  });
});
