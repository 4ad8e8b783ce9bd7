import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { admissionInput, fakeClient } from '../testkit.js';
import { pubValidationStep } from './pod-validation.js';

const pod = (name: string, image = 'nginx:1.25'): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', annotations: { 'pub.kruise.io/related-pub': 'b' } },
  spec: { containers: [{ name: 'c', image }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
});
const pub = (allowed: number) => ({
  apiVersion: 'policy.kruise.io/v1beta1', kind: 'PodUnavailableBudget', metadata: { name: 'b', namespace: 'ns', uid: 'u1', resourceVersion: '1' },
  spec: { maxUnavailable: 1 }, status: { totalReplicas: 3, desiredAvailable: 2, currentAvailable: 2 + allowed, unavailableAllowed: allowed },
});
const run = (o: Parameters<typeof admissionInput>[0]) => pubValidationStep.validate(admissionInput({ version: 'v1', group: '', kind: 'Pod', ...o }));
const negative = /podunavailablebudget.policy.kruise.io "b" is forbidden: pub unavailable allowed is negative/;

describe('the pub pod validation step', () => {
  test('a delete at budget 0 is refused with 403, and the Warning event is written', async () => {
    const client = fakeClient({ objects: [pub(0) as never] });
    await assert.rejects(Promise.resolve(run({ operation: 'DELETE', oldObject: pod('a'), client, gates: { PodUnavailableBudgetDeleteGate: true } })),
      (e: Error & { code?: number }) => e.code === 403 && negative.test(e.message));
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(client.creates.some((e) => (e as { reason?: string }).reason === 'PubPreventPodDeletion'));
  });

  test('a dry-run delete with budget left is admitted without writing status', async () => {
    // the fake client cannot write status: an attempt would fail the test
    await run({ operation: 'DELETE', oldObject: pod('a'), dryRun: true, client: fakeClient({ objects: [pub(1) as never] }), gates: { PodUnavailableBudgetDeleteGate: true } });
  });

  test('gates: deletes pass with DeleteGate off, image updates pass with UpdateGate off and are refused with it on', async () => {
    const client = fakeClient({ objects: [pub(0) as never] });
    await run({ operation: 'DELETE', oldObject: pod('a'), client, gates: {} });
    const update = { operation: 'UPDATE' as const, oldObject: pod('a'), object: pod('a', 'nginx:1.26'), client };
    await run({ ...update, gates: { PodUnavailableBudgetDeleteGate: true } });
    await assert.rejects(Promise.resolve(run({ ...update, gates: { PodUnavailableBudgetUpdateGate: true } })), negative);
    const labelOnly = { ...pod('a'), metadata: { ...pod('a').metadata, labels: { x: 'y' } } };
    await run({ operation: 'UPDATE', oldObject: pod('a'), object: labelOnly, client, gates: { PodUnavailableBudgetUpdateGate: true } });
  });

  test('unbound, not-ready or terminating pods and missing PUBs are not checked', async () => {
    const client = fakeClient({ objects: [pub(0) as never] });
    const gates = { PodUnavailableBudgetDeleteGate: true };
    const unbound = { ...pod('a'), metadata: { name: 'a', namespace: 'ns' } };
    await run({ operation: 'DELETE', oldObject: unbound, client, gates });
    await run({ operation: 'DELETE', oldObject: { ...pod('a'), status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } }, client, gates });
    await run({ operation: 'DELETE', oldObject: { ...pod('a'), metadata: { ...pod('a').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }, client, gates });
    await run({ operation: 'DELETE', oldObject: pod('a'), client: fakeClient(), gates });
    await run({ operation: 'DELETE', oldObject: pod('a'), subResource: 'status', client, gates });
  });
});
