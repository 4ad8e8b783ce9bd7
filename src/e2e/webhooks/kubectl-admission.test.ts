/**
 * The manager's webhooks as a user meets them: kubectl 1.32 against `kruise up` (API server and
 * manager in one process, webhooks called over HTTPS). Minimal manifests read back fully
 * defaulted in both versions (docs/design/cloneset.md §13 C2, C3, docs/design/advanced-statefulset.md §12 S2, docs/design/advanced-daemonset.md §11 D13), the specs' invalid examples are
 * rejected with the webhook's message, and --dry-run=server runs the webhooks without persisting.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';
import { kubectlFor } from '../../testing/kubectl.js';

type Obj = Record<string, any>;  

const template = (app: string, extra: Obj = {}) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: app, image: 'nginx:1.25-alpine' }], ...extra } });
const cloneSet = (name: string, spec: Obj = {}, apiVersion = 'apps.kruise.io/v1beta1') => ({
  apiVersion, kind: 'CloneSet', metadata: { name },
  spec: { replicas: 0, selector: { matchLabels: { app: name } }, template: template(name), ...spec },
});
const asts = (name: string, spec: Obj = {}, tpl: Obj = template(name), apiVersion = 'apps.kruise.io/v1beta1') => ({
  apiVersion, kind: 'StatefulSet', metadata: { name },
  spec: { replicas: 0, serviceName: name, selector: { matchLabels: { app: name } }, template: tpl, ...spec },
});
const ads = (name: string, rollingUpdate: Obj, extra: Obj = {}, apiVersion = 'apps.kruise.io/v1beta1', annotations?: Obj) => ({
  apiVersion, kind: 'DaemonSet', metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { selector: { matchLabels: { app: name } }, template: template(name), updateStrategy: { type: 'RollingUpdate', rollingUpdate }, ...extra },
});

describe('admission webhooks through kubectl against kruise up', () => {
  let dir: string;
  let up: UpProcess;
  let k: ReturnType<typeof kubectlFor>;
  const apply = (obj: Obj, ...args: string[]) => k(['apply', '-f', '-', ...args], { input: stringify(obj) });
  const getJson = async (...args: string[]): Promise<Obj> => {
    const r = await k(['get', ...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Obj;
  };

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-webhooks-'));
    up = await startUp(['--port', '0', '--data-dir', dir, '--nodes', '0', '--in-memory'], 40_000);
    k = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache'));
  });
  after(async () => {
    if (up) await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });

  test('C2: a minimal v1beta1 CloneSet reads back with every default, and as v1alpha1 in the flat shape', async () => {
    const r = await apply(cloneSet('demo', { replicas: 3 }));
    assert.equal(r.code, 0, r.stderr);
    const beta = await getJson('clonesets.v1beta1.apps.kruise.io', 'demo');
    assert.deepEqual(beta.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 } });
    assert.equal(beta.spec.revisionHistoryLimit, 10);
    assert.equal(beta.spec.scaleStrategy.enablePVCReuse, false);
    const pod = beta.spec.template.spec;
    assert.equal(pod.containers[0].imagePullPolicy, 'Always', 'Kruise defaults imagePullPolicy to Always whatever the tag');
    assert.equal(pod.restartPolicy, 'Always');
    assert.equal(pod.terminationGracePeriodSeconds, 30);
    assert.equal(pod.dnsPolicy, 'ClusterFirst');
    assert.equal(pod.containers[0].terminationMessagePath, '/dev/termination-log');
    const alpha = await getJson('clonesets.v1alpha1.apps.kruise.io', 'demo');
    assert.equal(alpha.apiVersion, 'apps.kruise.io/v1alpha1');
    assert.equal(alpha.spec.updateStrategy.type, 'ReCreate');
    assert.equal(alpha.spec.updateStrategy.partition, 0);
    assert.equal(alpha.spec.scaleStrategy.disablePVCReuse, true);
  });

  test('C3: a v1alpha1 manifest is stored as v1beta1 with the mapped fields and reads back as v1alpha1 unchanged', async () => {
    const manifest = cloneSet('alpha', { updateStrategy: { type: 'InPlaceIfPossible', partition: 1 } }, 'apps.kruise.io/v1alpha1');
    const r = await apply(manifest);
    assert.equal(r.code, 0, r.stderr);
    const beta = await getJson('clonesets.v1beta1.apps.kruise.io', 'alpha');
    assert.equal(beta.spec.updateStrategy.type, 'RollingUpdate');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.podUpdatePolicy, 'InPlaceIfPossible');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.partition, 1);
    assert.deepEqual(beta.spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy, {});
    assert.equal(beta.spec.scaleStrategy.enablePVCReuse, true, 'v1alpha1 without disablePVCReuse keeps PVC reuse');
    const alpha = await getJson('clonesets.v1alpha1.apps.kruise.io', 'alpha');
    assert.equal(alpha.spec.updateStrategy.type, 'InPlaceIfPossible');
    assert.equal(alpha.spec.updateStrategy.partition, 1);
    // Applying the same manifest again: kubectl's merge patch replaces the defaulted containers list
    // (as on any cluster with defaulting webhooks), the webhook defaults it again, nothing changes.
    const again = await apply(manifest);
    assert.equal(again.code, 0, again.stderr);
    const reread = await getJson('clonesets.v1alpha1.apps.kruise.io', 'alpha');
    assert.deepEqual(reread.spec, alpha.spec);
    assert.equal(reread.metadata.generation, 1, 'no spec change, no new generation');
  });

  test('C10: CloneSet budgets that cannot make progress are rejected by vcloneset.kb.io', async () => {
    const zero = await apply(cloneSet('zero', { replicas: 3, updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }));
    assert.notEqual(zero.code, 0);
    assert.match(zero.stderr, /admission webhook "vcloneset.kb.io" denied the request/);
    assert.match(zero.stderr, /maxUnavailable/);
    const surge = await apply(cloneSet('surge', { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceOnly', maxSurge: 1 } } }));
    assert.notEqual(surge.code, 0);
    assert.match(surge.stderr, /vcloneset.kb.io/);
    assert.match(surge.stderr, /maxSurge/);
    const selector = await apply({ ...cloneSet('mismatch'), spec: { ...cloneSet('mismatch').spec, selector: { matchLabels: { app: 'other' } } } });
    assert.match(selector.stderr, /selector.*does not match template.*labels|spec\.template\.metadata\.labels/);
  });

  test('S2 and S7: Advanced StatefulSet defaults, and each invalid spec is rejected with 422 naming the field', async () => {
    const r = await apply(asts('web'));
    assert.equal(r.code, 0, r.stderr);
    const web = await getJson('statefulsets.apps.kruise.io', 'web');
    assert.equal(web.spec.podManagementPolicy, 'OrderedReady');
    assert.deepEqual(web.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate', minReadySeconds: 0 } });
    const alpha = await apply(asts('web2', {}, template('web2'), 'apps.kruise.io/v1alpha1'));
    assert.equal(alpha.code, 0, alpha.stderr);
    assert.equal((await getJson('statefulsets.v1beta1.apps.kruise.io', 'web2')).spec.podManagementPolicy, 'OrderedReady');

    const cases: [string, Obj, RegExp][] = [
      ['InPlaceIfPossible without the readiness gate', asts('s1', { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } } }), /readinessGates|InPlaceUpdateReady/],
      ['maxUnavailable 2 with OrderedReady', asts('s2', { updateStrategy: { rollingUpdate: { maxUnavailable: 2 } } }), /can only work with Parallel/],
      ['unorderedUpdate with OrderedReady', asts('s3', { updateStrategy: { rollingUpdate: { unorderedUpdate: {} } } }), /unorderedUpdate/],
      ['minReadySeconds 301', asts('s4', { updateStrategy: { rollingUpdate: { minReadySeconds: 301 } } }), /must be no more than 300 seconds/],
      ['reserveOrdinals 5-2', asts('s5', { reserveOrdinals: ['5-2'] }), /reserveOrdinals/],
    ];
    for (const [name, obj, message] of cases) {
      const res = await apply(obj);
      assert.notEqual(res.code, 0, `${name} must be rejected`);
      assert.match(res.stderr, /admission webhook "vstatefulset.kb.io" denied the request/, name);
      assert.match(res.stderr, message, name);
      assert.equal((await k(['get', 'asts', obj.metadata.name])).code, 1, `${name}: nothing stored`);
    }
    const changed = await apply(asts('web', { podManagementPolicy: 'Parallel' }));
    assert.match(changed.stderr, /vstatefulset.kb.io/);
    assert.match(changed.stderr, /podManagementPolicy|updates to statefulset spec/);
  });

  test('D13: Advanced DaemonSet rolling-update rules, and v1alpha1 Surging reads back as Standard', async () => {
    const cases: [Obj, RegExp][] = [
      [ads('d1', { maxUnavailable: 1, maxSurge: 1 }), /maxSurge/],
      [ads('d2', { maxUnavailable: 0, maxSurge: 0 }), /maxUnavailable/],
      [ads('d3', { rollingUpdateType: 'InPlaceIfPossible', maxSurge: 1, maxUnavailable: 0 }), /maxSurge/],
      [ads('d4', { maxUnavailable: '120%' }), /maxUnavailable/],
      [ads('d5', { maxUnavailable: 1 }, { lifecycle: { inPlaceUpdate: { finalizersHandler: ['x'] } } }), /inPlaceUpdate hook has not supported yet/],
    ];
    for (const [obj, message] of cases) {
      const res = await apply(obj);
      assert.notEqual(res.code, 0, `${obj.metadata.name} must be rejected`);
      assert.match(res.stderr, /admission webhook "vdaemonset.kb.io" denied the request/);
      assert.match(res.stderr, message);
    }
    const surging = await apply(ads('agent', { rollingUpdateType: 'Surging' }, {}, 'apps.kruise.io/v1alpha1', { 'daemonset.kruise.io/progressive-create-pod': 'true' }));
    assert.equal(surging.code, 0, surging.stderr);
    const beta = await getJson('daemonsets.v1beta1.apps.kruise.io', 'agent');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.rollingUpdateType, 'Standard');
    assert.equal(beta.spec.updateStrategy.rollingUpdate.maxSurge, 1);
    assert.equal(beta.spec.updateStrategy.rollingUpdate.maxUnavailable, 0);
    assert.equal(beta.spec.scaleStrategy.partitionedScaling, true);
  });

  test('--dry-run=server runs the webhooks: invalid objects are rejected, valid ones come back defaulted and are not stored', async () => {
    const bad = await apply(cloneSet('dry-bad', { replicas: -1 }), '--dry-run=server');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /vcloneset.kb.io/);
    assert.match(bad.stderr, /spec.replicas/);
    const good = await apply(cloneSet('dry-good'), '--dry-run=server', '-o', 'json');
    assert.equal(good.code, 0, good.stderr);
    const shown = JSON.parse(good.stdout) as Obj;
    assert.equal(shown.spec.updateStrategy.rollingUpdate.maxUnavailable, '20%');
    assert.equal(shown.spec.template.spec.containers[0].imagePullPolicy, 'Always');
    const stored = await k(['get', 'clone', 'dry-good']);
    assert.equal(stored.code, 1);
    assert.match(stored.stderr, /NotFound|not found/);
  });

  test('jobs, sidecars and policy kinds: invalid manifests are rejected by their webhooks', async () => {
    const cases: [Obj, RegExp, RegExp][] = [
      [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob', metadata: { name: 'bj' }, spec: { template: template('bj', { restartPolicy: 'Always' }) } },
        /vbroadcastjob.kb.io/, /restartPolicy/],
      [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', metadata: { name: 'acj' }, spec: { schedule: 'not a schedule', template: { broadcastJobTemplate: { spec: { template: template('acj', { restartPolicy: 'Never' }) } } } } },
        /vadvancedcronjob.kb.io/, /schedule/],
      [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'sc' }, spec: { containers: [{ name: 'sidecar', image: 'busybox' }] } },
        /vsidecarset.kb.io/, /selector/],
      [{ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'pub' }, spec: { selector: { matchLabels: { app: 'x' } }, targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, maxUnavailable: 1 } },
        /vpodunavailablebudget.kb.io/, /selector|targetRef/],
    ];
    for (const [obj, webhook, message] of cases) {
      const res = await apply(obj);
      assert.notEqual(res.code, 0, `${obj.kind} must be rejected`);
      assert.match(res.stderr, webhook, obj.kind);
      assert.match(res.stderr, message, obj.kind);
    }
  });
});
