import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { KObject } from '../../api/meta.js';
import type { PersistentPodState } from '../../api/kruise/ops/persistentpodstate.js';
import { moreScenarioExamples } from '../../api/kruise/ops/scenario-examples-2.fixture.js';
import { fieldErrorMessage, type FieldError } from '../../machinery/errors.js';
import { admissionInput, assertHasError, fakeClient } from '../testkit.js';
import { createPersistentPodStateWebhooks, persistentPodStateWebhooks } from './index.js';

const dbRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' };
const required = { keys: ['zone'] };

function pps(name: string, spec: Record<string, unknown>): PersistentPodState {
  return { apiVersion: 'apps.kruise.io/v1beta1', kind: 'PersistentPodState', metadata: { name, namespace: 'pp1' }, spec: spec as PersistentPodState['spec'] };
}
/** The PersistentPodState example manifest (docs/design/kruise-api.md §10) as v1beta1 serves it (`nodeTopologyKeys` is `keys` there). */
const db = pps('db', { targetRef: dbRef, requiredPersistentTopology: required, preferredPersistentTopology: [{ weight: 100, preference: { keys: ['kubernetes.io/hostname'] } }] });

function configuration(whiteList: string): KObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' }, data: { PPS_Watch_Custom_Workload_WhiteList: whiteList } };
}
const whiteList = configuration(JSON.stringify({ workloads: [{ Group: 'game.kruise.io', Version: 'v1alpha1', Kind: 'GameServerSet' }] }));

async function validate(obj: PersistentPodState, old?: PersistentPodState, objects: KObject[] = [db as KObject, whiteList]): Promise<FieldError[]> {
  const client = fakeClient({ objects });
  return persistentPodStateWebhooks.validate!(admissionInput({ object: obj, client, oldObject: old }));
}

describe('PersistentPodState validation', () => {
  const cases: { name: string; obj: PersistentPodState; old?: PersistentPodState; field: string; fragment: string }[] = [
    { name: 'no topology at all (F.5 #5)', obj: pps('p', { targetRef: { ...dbRef, name: 'web' } }),
      field: 'spec', fragment: 'TopologyConstraint and TopologyPreference cannot be empty at the same time' },
    { name: 'targetRef kind Deployment (F.5 #5)', obj: pps('p', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, requiredPersistentTopology: required }),
      field: 'spec.targetRef', fragment: 'targetRef.Kind must be StatefulSet or in PPS_Watch_Custom_Workload_WhiteList' },
    { name: 'a second PPS targeting db (F.5 #5)', obj: pps('db2', { targetRef: { ...dbRef, apiVersion: 'apps/v1beta1' }, requiredPersistentTopology: required }),
      field: 'spec.targetRef', fragment: 'targetRef is in conflict with other PersistentPodState db' },
    { name: 'changing targetRef.name (F.5 #5)', obj: pps('db', { targetRef: { ...dbRef, name: 'other' }, requiredPersistentTopology: required }), old: db,
      field: 'spec.targetRef', fragment: 'Forbidden: targetRef is immutable' },
    { name: 'targetRef without name', obj: pps('p', { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: '' }, requiredPersistentTopology: required }),
      field: 'spec.targetRef', fragment: 'empty targetRef is not valid for PersistentPodState.' },
    { name: 'a whitelisted kind of another group', obj: pps('p', { targetRef: { apiVersion: 'other.io/v1', kind: 'GameServerSet', name: 'g' }, requiredPersistentTopology: required }),
      field: 'spec.targetRef', fragment: 'targetRef.Kind must be StatefulSet' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const errs = await validate(c.obj, c.old);
      assertHasError(errs, c.field, c.fragment);
    });
  }

  test('valid PPSs pass: the manual manifest itself, Advanced StatefulSet, whitelisted kinds, preferred-only, spec updates', async () => {
    const scenario = parse(moreScenarioExamples.find((e) => e.name === 'PersistentPodState v1beta1')!.yaml) as PersistentPodState;
    const valid = [
      db, scenario,
      pps('g', { targetRef: { apiVersion: 'game.kruise.io/v1alpha1', kind: 'GameServerSet', name: 'g' }, requiredPersistentTopology: required }),
      pps('p', { targetRef: { ...dbRef, name: 'web2' }, preferredPersistentTopology: [{ weight: 10, preference: { keys: ['zone'] } }] }),
    ];
    for (const obj of valid) assert.deepEqual((await validate(obj)).map(fieldErrorMessage), [], obj.metadata?.name);
    const update = pps('db', { targetRef: dbRef, requiredPersistentTopology: { keys: ['zone', 'rack'] }, persistentPodStateRetentionPolicy: 'WhenDeleted' });
    assert.deepEqual(await validate(update, db), []);
  });

  test('without the configuration ConfigMap only StatefulSets are accepted', async () => {
    const g = pps('g', { targetRef: { apiVersion: 'game.kruise.io/v1alpha1', kind: 'GameServerSet', name: 'g' }, requiredPersistentTopology: required });
    assert.deepEqual((await validate(g, undefined, [])).map((e) => e.field), ['spec.targetRef']);
    assert.deepEqual(await validate(db, undefined, []), []);
  });

  test('the whitelist is read from the configured namespace; an unreadable one denies', async () => {
    const webhooks = createPersistentPodStateWebhooks({ kruiseNamespace: 'elsewhere' });
    const client = fakeClient({ objects: [{ ...configuration('{not json'), metadata: { name: 'kruise-configuration', namespace: 'elsewhere' } }] });
    const errs = await webhooks.validate!(admissionInput({ object: db, client }));
    assert.equal(errs.length, 1);
    assert.match(fieldErrorMessage(errs[0]), /^: Internal error: failed to get persistent pod state config white list, error: /);
  });

  test('field errors deny with 400; validating only, no gate', () => {
    assert.equal(persistentPodStateWebhooks.invalidCode, 400);
    assert.equal(persistentPodStateWebhooks.default, undefined);
  });
});
