import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kruiseKinds } from './index.js';
import * as types from './resource-types.js';

test('every Kruise kind has a ResourceType at its storage version, scoped as its CRD', () => {
  const byKind = new Map(Object.values(types).filter((v) => typeof v === 'object').map((t) => [t.kind, t]));
  for (const def of kruiseKinds) assert.ok(byKind.has(def.kind), `${def.kind} has a ResourceType`);
  assert.deepEqual(types.CloneSets, { group: 'apps.kruise.io', version: 'v1beta1', resource: 'clonesets', kind: 'CloneSet', namespaced: true });
  assert.deepEqual(types.AdvancedStatefulSets, { group: 'apps.kruise.io', version: 'v1beta1', resource: 'statefulsets', kind: 'StatefulSet', namespaced: true });
  assert.deepEqual(types.PodUnavailableBudgets, { group: 'policy.kruise.io', version: 'v1beta1', resource: 'podunavailablebudgets', kind: 'PodUnavailableBudget', namespaced: true });
  assert.equal(types.SidecarSets.namespaced, false);
  assert.equal(types.NodeImages.namespaced, false);
  assert.deepEqual(types.kruiseResourceType(kruiseKinds[0]!, 'v1alpha1').version, 'v1alpha1');
});
