/**
 * A CloneSet driven by the real kubectl 1.32 (docs/design/cloneset.md §13 C1): apply, the printer columns of
 * `kubectl get clone`, `kubectl scale` through the scale subresource, the v1alpha1 view, and how a
 * user follows a rollout (kubectl's own `rollout` verbs refuse custom kinds; `kubectl wait
 * --for=jsonpath` is the built-in way).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  cloneSet, condition, eventually, getCloneSet, IMG1, IMG2, idAlphabet, lifecycleOf, livePods, manifest, revisionOf, settled, startCloneSetEnv, uids,
  type Pod,
} from './fixtures.js';

type Obj = Record<string, any>;  

describe('CloneSet through kubectl 1.32', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCloneSetEnv(); });
  after(() => w.stop());

  const kubectl = async (args: string[], input?: string) => w.env.kubectl(args, input === undefined ? {} : { input });
  const ok = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const json = async (...args: string[]): Promise<Obj> => JSON.parse(await ok(['get', ...args, '-o', 'json'])) as Obj;
  /** `kubectl get` table as header cells and rows of cells. */
  const table = async (...args: string[]) => {
    const [header, ...rows] = (await ok(['get', ...args])).trim().split('\n').map((l) => l.trim().split(/\s+/));
    return { header: header!, rows };
  };
  /** Reason and message of the CloneSet's events, as `kubectl get events` lists them. */
  const eventsOf = async (name: string) => ((await json('events', '--field-selector', `involvedObject.kind=CloneSet,involvedObject.name=${name}`)).items as Obj[])
    .map((e) => ({ reason: e.reason as string, message: e.message as string, type: e.type as string, from: e.source?.component as string }));
  const row = async (name: string) => (await ok(['get', 'clone', name, '--no-headers'])).trim().split(/\s+/).slice(0, 7);
  const waitFor = (name: string, jsonpath: string, timeout = '40s') =>
    kubectl(['wait', `--for=jsonpath={${jsonpath.split('=')[0]}}=${jsonpath.split('=')[1]}`, `clone/${name}`, `--timeout=${timeout}`]);

  test('C1: kubectl apply creates 3 pods; get clone prints the CRD columns; scale goes through the scale subresource', async () => {
    assert.equal(await ok(['apply', '-f', '-'], manifest(cloneSet('demo'))), 'cloneset.apps.kruise.io/demo created\n');
    const waited = await waitFor('demo', '.status.updatedAvailableReplicas=3');
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'cloneset.apps.kruise.io/demo condition met\n');
    const cs = await settled(w.client, 'demo', 3);
    const status = cs.status!;

    const shown = await json('clone', 'demo');
    assert.deepEqual(shown.status, {
      observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3, expectedUpdatedReplicas: 3, updateRevision: status.updateRevision, currentRevision: status.updateRevision,
      labelSelector: 'app=demo', collisionCount: 0,
    }, 'a healthy CloneSet without progressDeadlineSeconds has no conditions');
    assert.match(status.updateRevision!, new RegExp(`^demo-[${idAlphabet}]+$`));

    const pods = (await json('pods', '-l', 'app=demo')).items as Pod[];
    assert.equal(pods.length, 3);
    for (const pod of pods) {
      const id = new RegExp(`^demo-([${idAlphabet}]{5})$`).exec(pod.metadata.name!)?.[1];
      assert.ok(id, `pod name ${pod.metadata.name} is demo-<5 chars>`);
      assert.equal(pod.metadata.labels?.['apps.kruise.io/cloneset-instance-id'], id);
      assert.equal(revisionOf(pod), status.updateRevision);
      assert.equal(pod.metadata.labels?.['pod-template-hash'], status.updateRevision!.slice('demo-'.length));
      assert.equal(lifecycleOf(pod), 'Normal');
      assert.ok(pod.spec.readinessGates!.some((g) => g.conditionType === 'InPlaceUpdateReady'));
      assert.equal(condition(pod, 'InPlaceUpdateReady')?.status, 'True');
      assert.equal(condition(pod, 'Ready')?.status, 'True');
    }

    const plain = await table('clone', 'demo');
    assert.deepEqual(plain.header, ['NAME', 'DESIRED', 'UPDATED', 'UPDATED_READY', 'UPDATED_AVAILABLE', 'READY', 'TOTAL', 'AGE']);
    assert.deepEqual(plain.rows.map((r) => r.slice(0, 7)), [['demo', '3', '3', '3', '3', '3', '3']]);
    assert.match(plain.rows[0]![7]!, /^\d+s$/);
    const wide = await table('clone', 'demo', '-o', 'wide');
    assert.deepEqual(wide.header, [...plain.header, 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(wide.rows[0]!.slice(8), ['web', IMG1, 'app=demo']);

    assert.equal(await ok(['scale', 'clone', 'demo', '--replicas=5']), 'cloneset.apps.kruise.io/demo scaled\n');
    await settled(w.client, 'demo', 5);
    assert.equal((await livePods(w.client, 'demo')).length, 5);
    assert.deepEqual(await row('demo'), ['demo', '5', '5', '5', '5', '5', '5']);

    assert.equal(await ok(['scale', 'clone', 'demo', '--replicas=1']), 'cloneset.apps.kruise.io/demo scaled\n');
    await settled(w.client, 'demo', 1);
    assert.equal((await livePods(w.client, 'demo')).length, 1);
    const scale = JSON.parse(await ok(['get', '--raw', '/apis/apps.kruise.io/v1beta1/namespaces/default/clonesets/demo/scale'])) as Obj;
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.metadata.name, 'demo');
    assert.deepEqual(scale.spec, { replicas: 1 });
    assert.deepEqual(scale.status, { replicas: 1, selector: 'app=demo' });

    // --current-replicas is checked against the scale subresource before anything is written.
    const stale = await kubectl(['scale', 'clone', 'demo', '--current-replicas=3', '--replicas=2']);
    assert.equal(stale.code, 1);
    assert.equal(stale.stderr, 'error: Expected replicas to be 3, was 1\n');
    assert.equal((await getCloneSet(w.client, 'demo')).spec?.replicas, 1);
  });

  test('the v1alpha1 view of a running CloneSet has the flat updateStrategy and the same status; writes through it reach v1beta1', async () => {
    await ok(['apply', '-f', '-'], manifest(cloneSet('view', { replicas: 2 })));
    const cs = await settled(w.client, 'view', 2);
    const alpha = parse(await ok(['get', 'clonesets.v1alpha1.apps.kruise.io', 'view', '-o', 'yaml'])) as Obj;
    assert.equal(alpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.equal(alpha.kind, 'CloneSet');
    assert.equal(alpha.metadata.uid, cs.metadata.uid);
    assert.deepEqual(alpha.spec.updateStrategy, { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 });
    assert.deepEqual(alpha.spec.scaleStrategy, { disablePVCReuse: true });
    assert.equal(alpha.spec.replicas, 2);
    assert.equal(alpha.spec.revisionHistoryLimit, 10);
    assert.equal(alpha.spec.template.spec.containers[0].imagePullPolicy, 'Always');
    assert.deepEqual(alpha.status, (await json('clonesets.v1beta1.apps.kruise.io', 'view')).status);

    // A v1alpha1 client switching to in-place updates: its type maps to rollingUpdate.podUpdatePolicy.
    const before = await livePods(w.client, 'view');
    await ok(['patch', 'clonesets.v1alpha1.apps.kruise.io', 'view', '--type=merge', '-p',
      JSON.stringify({ spec: { updateStrategy: { type: 'InPlaceIfPossible' }, template: { spec: { containers: [{ name: 'web', image: IMG2 }] } } } })]);
    const beta = await json('clonesets.v1beta1.apps.kruise.io', 'view');
    assert.equal(beta.spec.updateStrategy.type, 'RollingUpdate');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.podUpdatePolicy, 'InPlaceIfPossible');
    assert.deepEqual(beta.spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy, {});
    const rolled = await settled(w.client, 'view', 2, { notRevision: cs.status!.updateRevision });
    const after = await livePods(w.client, 'view');
    assert.deepEqual(uids(after), uids(before), 'updated in place: same names and UIDs');
    assert.ok(after.every((p) => p.spec.containers[0]!.image === IMG2 && revisionOf(p) === rolled.status!.updateRevision));
    const inPlace = await eventually('in-place events', async () => {
      const events = (await eventsOf('view')).filter((e) => e.reason === 'SuccessfulUpdatePodInPlace');
      return events.length === 2 ? events : undefined;
    });
    const expected = after.map((p) => `successfully update pod ${p.metadata.name} in-place(revision ${rolled.status!.updateRevision})`);
    assert.deepEqual(inPlace.map((e) => e.message).sort(), expected.sort());
    assert.ok(inPlace.every((e) => e.type === 'Normal' && e.from === 'cloneset-controller'));
  });

  test('kubectl rollout refuses a CloneSet; kubectl wait on observedGeneration then updatedAvailableReplicas follows the rollout', async () => {
    await ok(['apply', '-f', '-'], manifest(cloneSet('web', { updateStrategy: { rollingUpdate: { maxUnavailable: 1 } } })));
    const first = await settled(w.client, 'web', 3);
    const firstPods = await livePods(w.client, 'web');
    for (const verb of [['status'], ['history'], ['restart'], ['undo'], ['pause']]) {
      const r = await kubectl(['rollout', ...verb, 'clone/web']);
      assert.equal(r.code, 1, `rollout ${verb[0]}`);
      // kubectl decodes the object with its built-in scheme before looking for a status viewer.
      const refused = /^error: no kind "CloneSet" is registered for version "apps\.kruise\.io\/v1beta1" in scheme "[^"]*pkg\/scheme\/scheme\.go:\d+"\n$/;
      assert.match(r.stderr, refused, `rollout ${verb[0]}`);
    }

    // Paused: the spec change is observed but no pod moves, so the wait times out.
    const generation = await ok(['patch', 'clone', 'web', '--type=merge', '-o', 'jsonpath={.metadata.generation}', '-p',
      JSON.stringify({ spec: { updateStrategy: { rollingUpdate: { paused: true } }, template: { spec: { containers: [{ name: 'web', image: IMG2 }] } } } })]);
    const observed = await waitFor('web', `.status.observedGeneration=${generation}`);
    assert.equal(observed.code, 0, observed.stderr);
    const stuck = await waitFor('web', '.status.updatedAvailableReplicas=3', '2s');
    assert.equal(stuck.code, 1);
    assert.equal(stuck.stderr, 'error: timed out waiting for the condition on clonesets/web\n');
    assert.deepEqual(await row('web'), ['web', '3', '0', '0', '0', '3', '3']);

    const resumed = await ok(['patch', 'clone', 'web', '--type=merge', '-o', 'jsonpath={.metadata.generation}', '-p',
      JSON.stringify({ spec: { updateStrategy: { rollingUpdate: { paused: false } } } })]);
    assert.equal((await waitFor('web', `.status.observedGeneration=${resumed}`)).code, 0);
    const done = await waitFor('web', '.status.updatedAvailableReplicas=3', '60s');
    assert.equal(done.code, 0, done.stderr);
    const images = await ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.containers[0].image}{"\\n"}{end}']);
    assert.deepEqual(images.trim().split('\n').sort(), [IMG2, IMG2, IMG2].sort());
    const cs = await getCloneSet(w.client, 'web');
    assert.notEqual(cs.status!.updateRevision, first.status!.updateRevision);
    const converged = await waitFor('web', `.status.currentRevision=${cs.status!.updateRevision}`);
    assert.equal(converged.code, 0, converged.stderr);

    // What `kubectl describe clone web` lists under Events: each old pod marked, deleted and replaced.
    const events = await eventually('rollout events', async () => {
      const all = await eventsOf('web');
      return all.filter((e) => e.reason === 'SuccessfulDelete').length === 3 && all.filter((e) => e.reason === 'SuccessfulCreate').length === 6 ? all : undefined;
    });
    const messages = (reason: string) => events.filter((e) => e.reason === reason).map((e) => e.message).sort();
    const oldNames = [...uids(firstPods).keys()];
    const marked = oldNames.map((n) => `successfully patch pod ${n} specified-delete for update(revision ${cs.status!.updateRevision})`);
    assert.deepEqual(messages('SuccessfulUpdatePodReCreate'), marked.sort());
    assert.deepEqual(messages('SuccessfulDelete'), oldNames.map((n) => `succeed to delete pod ${n}`).sort());
    const newNames = (await livePods(w.client, 'web')).map((p) => p.metadata.name!);
    assert.deepEqual(messages('SuccessfulCreate'), [...oldNames, ...newNames].map((n) => `succeed to create pod ${n}`).sort());
    assert.ok(events.every((e) => e.type === 'Normal' && e.from === 'cloneset-controller'), JSON.stringify(events));
  });

});
