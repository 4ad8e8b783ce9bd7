/**
 * SidecarSet on a REAL control plane (kube-apiserver + kube-controller-manager v1.32 from
 * scripts/real-control-plane.sh; docs/design/sidecarset.md §9): kube-apiserver calls the pod
 * webhook of `kruise manager` running out of process, the real Deployment controller's pods get the
 * sidecar, and an image change rolls only the sidecar in place. Our scheduler and simulated nodes
 * act as kubelets. Skipped, with the reason, when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const availability = realControlPlaneAvailable();

describe('SidecarSet on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 420_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-sidecarset' });
  const { kubectl, json, pods, apply } = k;

  test('a Deployment\'s pods get the manual\'s SidecarSet; an image change restarts only the sidecar, in place', async () => {
    const sidecarSet = {
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'log-agent' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        containers: [{ name: 'agent', image: 'busybox:1.35', command: ['sleep', '3600'], volumeMounts: [{ name: 'logs', mountPath: '/var/log/app' }] }],
        volumes: [{ name: 'logs', emptyDir: {} }],
      },
    };
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } } },
    };
    for (const obj of [sidecarSet, deployment]) await apply(obj);
    const status = (check: (s: Obj, live: Obj[]) => boolean, what: string) => eventually(what, async () => {
      const set = await json(['get', 'sidecarsets.v1beta1.apps.kruise.io', 'log-agent']);
      const live = await pods('web');
      return set.status?.observedGeneration === set.metadata.generation && check(set.status, live) ? { set, live } : undefined;
    }, 90_000);
    const first = await status((s, live) => s.matchedPods === 2 && s.readyPods === 2 && live.length === 2, '2 matched and ready pods');
    for (const pod of first.live) {
      assert.deepEqual(pod.spec.containers.map((c: Obj) => c.name), ['agent', 'main']);
      assert.equal(pod.metadata.annotations['kruise.io/sidecarset-injected-list'], 'log-agent');
      assert.ok(pod.spec.containers[0].env.some((e: Obj) => e.name === 'IS_INJECTED' && e.value === 'true'));
      assert.match(pod.spec.nodeName, /^sim-/);
    }
    assert.match(first.set.status.latestRevision, /^log-agent-/);
    const uids = new Map(first.live.map((p) => [p.metadata.name, p.metadata.uid]));

    const patched = await kubectl(['patch', 'sidecarset', 'log-agent', '--type', 'merge', '-p',
      JSON.stringify({ spec: { containers: [{ ...sidecarSet.spec.containers[0], image: 'busybox:1.36' }] } })]);
    assert.equal(patched.code, 0, patched.stderr);
    const rolled = await status((s, live) => s.updatedPods === 2 && s.updatedReadyPods === 2
      && live.every((p) => p.status.containerStatuses.find((c: Obj) => c.name === 'agent')?.restartCount === 1), 'both pods updated in place');
    assert.deepEqual(new Map(rolled.live.map((p) => [p.metadata.name, p.metadata.uid])), uids);
    for (const pod of rolled.live) {
      assert.equal(pod.spec.containers[0].image, 'busybox:1.36');
      assert.equal(pod.status.containerStatuses.find((c: Obj) => c.name === 'main').restartCount, 0);
      assert.ok(JSON.parse(pod.metadata.annotations['kruise.io/sidecarset-inplace-update-state'])['log-agent']);
    }
  });
});
