import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionRequest } from '../../api/admission.js';
import type { KObject, OwnerReference } from '../../api/meta.js';
import type { AdmissionInput } from '../kind-webhook.js';
import { fakeClient } from '../protection/testkit.js';
import { createPodMutator, orderSteps, podMutationOrder, podMutationSteps, podWebhooks, type PodMutationStep } from './index.js';
import type { Pod } from '../../api/core/index.js';

function createInput(pod: KObject, options: { gates?: Record<string, boolean>; operation?: AdmissionRequest['operation']; namespace?: string } = {}): AdmissionInput {
  const request: AdmissionRequest = {
    uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: options.namespace ?? 'ns1', operation: options.operation ?? 'CREATE', userInfo: { username: 'kube-controller-manager' }, object: pod,
  };
  return { request, object: pod, version: 'v1', client: fakeClient(), gate: (n) => options.gates?.[n] ?? false };
}

const owner = (apiVersion: string, kind: string, controller = true): OwnerReference => ({ apiVersion, kind, name: 'owner', uid: 'uid-1', controller });
const pod = (refs: OwnerReference[] = [], readinessGates?: { conditionType: string }[]): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ownerReferences: refs }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...(readinessGates ? { readinessGates } : {}) },
});
const mutate = async (input: AdmissionInput) => (await podWebhooks.default!(input)) as Pod;

describe('pod mutating chain', () => {
  test('steps run in the documented order, whatever order they are registered in', async () => {
    const ran: string[] = [];
    const step = (name: PodMutationStep['name']): PodMutationStep => ({ name, enabled: () => true, mutate: () => { ran.push(name); } });
    const mutator = createPodMutator([step('probe-marker'), step('pub'), step('readiness-gate'), step('sidecarset')]);
    await mutator(createInput(pod()));
    assert.deepEqual(ran, ['readiness-gate', 'sidecarset', 'pub', 'probe-marker']);
    assert.deepEqual([...podMutationOrder], ['readiness-gate', 'workloadspread', 'sidecarset', 'container-launch-priority', 'pub', 'persistentpodstate', 'enhanced-liveness', 'probe-marker']);
    assert.deepEqual(orderSteps(podMutationSteps).map((s) => s.name), ['readiness-gate', 'workloadspread', 'sidecarset', 'container-launch-priority', 'pub', 'persistentpodstate', 'probe-marker']);
  });

  test('disabled steps are skipped; unknown and duplicate steps are rejected', async () => {
    const ran: string[] = [];
    const gated: PodMutationStep = { name: 'pub', enabled: (gate) => gate('PodUnavailableBudgetDeleteGate'), mutate: () => { ran.push('pub'); } };
    await createPodMutator([gated])(createInput(pod()));
    assert.deepEqual(ran, []);
    await createPodMutator([gated])(createInput(pod(), { gates: { PodUnavailableBudgetDeleteGate: true } }));
    assert.deepEqual(ran, ['pub']);
    assert.throws(() => orderSteps([gated, gated]), /pod mutation step pub registered twice/);
    assert.throws(() => orderSteps([{ ...gated, name: 'nope' as PodMutationStep['name'] }]), /unknown pod mutation step "nope"/);
  });

  test('steps work on a copy with the namespace filled from the request; only CREATE mutates', async () => {
    const original = pod([owner('apps.kruise.io/v1beta1', 'CloneSet')]);
    const created = await mutate(createInput(original, { namespace: 'web' }));
    assert.equal(created.metadata.namespace, 'web');
    assert.deepEqual(created.spec?.readinessGates, [{ conditionType: 'KruisePodReady' }]);
    assert.equal(original.spec?.readinessGates, undefined);
    assert.equal(await mutate(createInput(original, { operation: 'UPDATE' })), original);
  });
});

describe('readiness gate step', () => {
  test('pods controlled by an apps.kruise.io workload get KruisePodReady', async () => {
    for (const ref of [owner('apps.kruise.io/v1alpha1', 'CloneSet'), owner('apps.kruise.io/v1beta1', 'StatefulSet'), owner('apps.kruise.io/v1alpha1', 'DaemonSet')]) {
      const out = await mutate(createInput(pod([owner('v1', 'Node', false), ref], [{ conditionType: 'example.com/ready' }])));
      assert.deepEqual(out.spec?.readinessGates, [{ conditionType: 'example.com/ready' }, { conditionType: 'KruisePodReady' }], ref.kind);
    }
  });

  test('other pods are untouched while KruisePodReadinessGate is off, and gated when it is on', async () => {
    const others = [pod(), pod([owner('apps/v1', 'ReplicaSet')]), pod([owner('apps.kruise.io/v1beta1', 'CloneSet', false)]), pod([owner('apps.kruise.io.example/v1', 'Thing')])];
    for (const p of others) {
      const out = await mutate(createInput(p));
      assert.deepEqual(out.spec, p.spec);
      const gated = await mutate(createInput(p, { gates: { KruisePodReadinessGate: true } }));
      assert.deepEqual(gated.spec?.readinessGates, [{ conditionType: 'KruisePodReady' }]);
    }
  });

  test('idempotent when the gate is already there', async () => {
    const p = pod([owner('apps.kruise.io/v1beta1', 'CloneSet')], [{ conditionType: 'KruisePodReady' }]);
    const out = await mutate(createInput(p, { gates: { KruisePodReadinessGate: true } }));
    assert.deepEqual(out.spec?.readinessGates, [{ conditionType: 'KruisePodReady' }]);
  });
});
