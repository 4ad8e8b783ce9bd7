/**
 * ASTS acceptance S10 with gate StatefulSetStartOrdinal=true, claim expansion with gate
 * StatefulSetAutoResizePVCGate=true, and S7: the webhook rejections a user meets through the API
 * (422 with the field path in the message).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../machinery/errors.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import type { KObject } from '../../api/meta.js';
import { PersistentVolumeClaims } from '../../api/resource-type.js';
import {
  AdvancedStatefulSets, eventually, getSet, IMG1, livePods, names, ns, patchSpec, settled, startStatefulSetEnv, sts, type StatefulSet,
} from './fixtures.js';

type Obj = Record<string, unknown>;

async function rejected(what: string, write: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await write();
  } catch (e) {
    assert.ok(e instanceof StatusError, `${what}: ${String(e)}`);
    assert.equal(e.code, 422, `${what}: ${e.message}`);
    assert.match(e.message, message, what);
    return;
  }
  assert.fail(`${what} was accepted`);
}

describe('Advanced StatefulSet: start ordinal (gate on) and webhook rejections', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startStatefulSetEnv({ gates: 'StatefulSetStartOrdinal=true,StatefulSetAutoResizePVCGate=true' }); });
  after(() => w.stop());

  test('S10: ordinals.start 10 gives pods web-10..12', async () => {
    await w.client.create(AdvancedStatefulSets, sts('web', { ordinals: { start: 10 } }));
    await settled(w.client, 'web', 3, { names: ['web-10', 'web-11', 'web-12'] });
    assert.deepEqual(names(await livePods(w.client, 'web')), ['web-10', 'web-11', 'web-12']);
  });

  test('volumeClaimUpdateStrategy OnPodRollingUpdate expands claims and reports compatible replicas', async () => {
    const claim = (storage: string) => ({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } });
    await w.client.create(AdvancedStatefulSets, sts('vc', { replicas: 2, volumeClaimTemplates: [claim('1Gi')], volumeClaimUpdateStrategy: { type: 'OnPodRollingUpdate' } }));
    const first = await settled(w.client, 'vc', 2);
    assert.deepEqual(first.status?.volumeClaims, [{ volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 2 }]);
    const templates = structuredClone(first.spec!.volumeClaimTemplates!) as { spec: { resources: { requests: { storage: string } } } }[];
    templates[0]!.spec.resources.requests.storage = '2Gi';
    await patchSpec(w.client, 'vc', { volumeClaimTemplates: templates });
    const claims = await eventually('claims expanded', async () => {
      const list = (await w.client.list<KObject>(PersistentVolumeClaims, { namespace: ns, labelSelector: 'app=vc' })).items;
      const storage = (c: KObject) => (c.spec as { resources: { requests: { storage: string } } }).resources.requests.storage;
      return list.length === 2 && list.every((c) => storage(c) === '2Gi') ? list : undefined;
    }, 60_000);
    for (const c of claims) assert.equal(c.metadata.annotations?.['apps.kruise.io/owned-by-asts'], 'true');
    const set = await eventually('status counts the expanded claims', async () => {
      const s = await getSet(w.client, 'vc');
      return s.status?.observedGeneration === s.metadata.generation && s.status?.volumeClaims?.[0]?.compatibleReplicas === 2 ? s : undefined;
    }, 60_000);
    assert.deepEqual(set.status?.volumeClaims, [{ volumeClaimName: 'data', compatibleReplicas: 2, compatibleReadyReplicas: 2 }]);
  });

  test('S7: invalid specs and updates are rejected with 422', async () => {
    const create = (name: string, spec: Obj, podSpec: Obj = {}) => () => w.client.create(AdvancedStatefulSets, sts(name, spec, podSpec));
    const rolling = (r: Obj, extra: Obj = {}) => ({ updateStrategy: { rollingUpdate: r }, ...extra });
    await rejected('InPlaceIfPossible without the gate', create('r1', rolling({ podUpdatePolicy: 'InPlaceIfPossible' }), { readinessGates: [] }),
      /spec\.template\.spec\.readinessGates: .*InPlaceUpdateReady/);
    await rejected('maxUnavailable 2 with OrderedReady', create('r2', rolling({ maxUnavailable: 2 })),
      /spec\.updateStrategy\.rollingUpdate\.maxUnavailable: .*can only work with Parallel PodManagementPolicyType/);
    await rejected('unorderedUpdate with OrderedReady', create('r3', rolling({ unorderedUpdate: {} })),
      /spec\.updateStrategy\.rollingUpdate\.unorderedUpdate: .*can only work with Parallel PodManagementPolicyType/);
    await rejected('minReadySeconds 301', create('r4', rolling({ minReadySeconds: 301 })),
      /spec\.updateStrategy\.rollingUpdate\.minReadySeconds: .*must be no more than 300 seconds/);
    await rejected('reserveOrdinals 5-2', create('r5', { reserveOrdinals: ['5-2'] }), /spec\.reserveOrdinals\[0\]: Invalid value: "5-2"/);

    const forbidden = /spec: Forbidden: updates to statefulset spec for fields other than 'replicas'/;
    await w.client.create(AdvancedStatefulSets, sts('u1', rolling({ podUpdatePolicy: 'InPlaceOnly' })));
    await rejected('serviceName change', () => patchSpec(w.client, 'u1', { serviceName: 'other' }), forbidden);
    await rejected('podManagementPolicy change', () => patchSpec(w.client, 'u1', { podManagementPolicy: 'Parallel' }), forbidden);
    await rejected('InPlaceOnly env change', () => patchSpec(w.client, 'u1', {
      template: { spec: { containers: [{ name: 'app', image: IMG1, env: [{ name: 'A', value: 'b' }] }] } },
    }), /invalid template modified with InPlaceOnly strategy: add \/containers\/0\/env/);
    const u1 = await w.client.get<StatefulSet>(AdvancedStatefulSets, ns, 'u1');
    assert.equal(u1.spec?.serviceName, 'u1');
    assert.equal(u1.spec?.podManagementPolicy, 'OrderedReady');
  });
});
