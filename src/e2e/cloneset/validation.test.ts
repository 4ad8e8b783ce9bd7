/**
 * CloneSet admission as a kubectl user meets it (docs/design/webhooks.md §8, docs/design/cloneset.md §13 C10 negatives and C15
 * rejections): exit code 1, HTTP 422 from the API server (seen with -v=6), the webhook's message
 * naming the field, and nothing stored or changed. Complements src/e2e/webhooks/kubectl-admission.test.ts,
 * which checks the same rules loosely on create only.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { cloneSet, getCloneSet, manifest, settled, startCloneSetEnv } from './fixtures.js';

type Obj = Record<string, unknown>;
const mutableFields = "'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', "
  + "'volumeClaimTemplates' and 'revisionHistoryLimit'";
const budget = (rollingUpdate: Obj) => ({ updateStrategy: { rollingUpdate } });
const noBudget = (value: string) => `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: ${value}: maxUnavailable and maxSurge should not both be less than 1`;
const immutable = `spec: Forbidden: updates to cloneset spec for fields other than ${mutableFields} are forbidden`;

describe('CloneSet admission through kubectl 1.32', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startCloneSetEnv({ nodes: 1 }); });
  after(() => w.stop());

  /** Runs kubectl with -v=6 and returns exit code, the HTTP status of the write, and the error line. */
  async function denied(args: string[], input?: string) {
    const r = await w.env.kubectl([...args, '-v=6'], input === undefined ? {} : { input });
    const write = /\] (?:POST|PUT|PATCH) https:\/\/\S+\/clonesets\S* (\d{3}) /.exec(r.stderr);
    // Everything from kubectl's "Error from server" on, without the klog lines of -v=6.
    const lines = r.stderr.split('\n');
    const from = lines.findIndex((l) => l.startsWith('Error from server'));
    const error = from < 0 ? undefined : lines.slice(from).filter((l) => !/^[IWE]\d{4} /.test(l)).join('\n').trim();
    return { code: r.code, http: write ? Number(write[1]) : undefined, error };
  }
  const create = (obj: unknown) => denied(['create', '-f', '-'], manifest(obj));
  const patch = (name: string, body: Obj, type = 'merge', resource = 'clone') => denied(['patch', resource, name, `--type=${type}`, '-p', JSON.stringify(body)]);
  const webhook = 'admission webhook "vcloneset.kb.io" denied the request: ';
  const onCreate = (message: string) => `Error from server: error when creating "STDIN": ${webhook}${message}`;
  const onUpdate = (message: string) => `Error from server: ${webhook}${message}`;
  async function assertNotStored(name: string) {
    const r = await w.env.kubectl(['get', 'clone', name]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `Error from server (NotFound): clonesets.apps.kruise.io "${name}" not found\n`);
  }
  async function created(obj: unknown) {
    const r = await w.env.kubectl(['create', '-f', '-'], { input: manifest(obj) });
    assert.equal(r.code, 0, r.stderr);
  }

  test('C10: a budget that can never move a pod is rejected, also as percents and on update; rounding is by ceil', async () => {
    const zero = await create(cloneSet('zero-pct', budget({ maxSurge: '0%', maxUnavailable: '0%' })));
    assert.deepEqual(zero, { code: 1, http: 422, error: onCreate(noBudget('"0%"')) });
    await assertNotStored('zero-pct');

    // 10% of 3 rounds up to 1: allowed. With no replicas the rule does not apply.
    await created(cloneSet('ceil', budget({ maxSurge: 0, maxUnavailable: '10%' })));
    await created(cloneSet('empty', { replicas: 0, ...budget({ maxSurge: 0, maxUnavailable: 0 }) }));

    await created(cloneSet('budget', { replicas: 1 }));
    await settled(w.client, 'budget', 1);
    const update = await patch('budget', { spec: budget({ maxSurge: 0, maxUnavailable: 0 }) });
    assert.deepEqual(update, { code: 1, http: 422, error: onUpdate(noBudget('0')) });
    const scaledUp = await patch('empty', { spec: { replicas: 2 } });
    assert.deepEqual(scaledUp, { code: 1, http: 422, error: onUpdate(noBudget('0')) },
      'scaling a zero-budget CloneSet above 0 replicas is an update the rule now applies to');
    const stored = await getCloneSet(w.client, 'budget');
    assert.equal(stored.metadata.generation, 1);
    assert.equal(stored.spec?.updateStrategy?.rollingUpdate?.maxUnavailable, '20%');
    assert.equal(stored.spec?.updateStrategy?.rollingUpdate?.maxSurge, 0);

    const notPercent = await create(cloneSet('surge-x', budget({ maxSurge: '1x' })));
    assert.equal(notPercent.code, 1);
    assert.equal(notPercent.http, 422);
    assert.ok(notPercent.error?.startsWith(onCreate('spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "1x": ')), notPercent.error);
    assert.match(notPercent.error!, /is not a percentage$/);
    await assertNotStored('surge-x');
  });

  test('C10: maxSurge cannot be combined with InPlaceOnly, on create or by switching the policy later', async () => {
    const message = 'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly';
    assert.deepEqual(await create(cloneSet('only', budget({ podUpdatePolicy: 'InPlaceOnly', maxSurge: 1 }))), { code: 1, http: 422, error: onCreate(message) });
    await assertNotStored('only');
    await created(cloneSet('surging', { replicas: 0, ...budget({ podUpdatePolicy: 'InPlaceIfPossible', maxSurge: 1 }) }));
    assert.deepEqual(await patch('surging', { spec: budget({ podUpdatePolicy: 'InPlaceOnly' }) }), { code: 1, http: 422, error: onUpdate(message) });
    assert.equal((await getCloneSet(w.client, 'surging')).spec?.updateStrategy?.rollingUpdate?.podUpdatePolicy, 'InPlaceIfPossible');
  });

  test('C15: a selector that does not match the template labels and restartPolicy Never are rejected with the field named', async () => {
    const mismatch = cloneSet('mismatch');
    (mismatch.spec!.template as { metadata: Obj }).metadata = { labels: { app: 'other' } };
    assert.deepEqual(await create(mismatch), {
      code: 1, http: 422, error: onCreate('spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`'),
    });
    await assertNotStored('mismatch');

    const never = 'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"';
    assert.deepEqual(await create(cloneSet('never', {}, { restartPolicy: 'Never' })), { code: 1, http: 422, error: onCreate(never) });
    await assertNotStored('never');
    await created(cloneSet('always', { replicas: 0 }));
    assert.deepEqual(await patch('always', { spec: { template: { spec: { restartPolicy: 'Never' } } } }), { code: 1, http: 422, error: onUpdate(never) });
    assert.equal((await getCloneSet(w.client, 'always')).metadata.generation, 1);
  });

  test('C15: the selector is immutable; the message lists the fields an update may change', async () => {
    await created(cloneSet('fixed', { replicas: 1 }));
    const before = await settled(w.client, 'fixed', 1);
    // Still matches the template labels: only the immutability rule can object.
    const widened = await patch('fixed', { spec: { selector: { matchLabels: { app: 'fixed' }, matchExpressions: [{ key: 'app', operator: 'Exists' }] } } });
    assert.deepEqual(widened, { code: 1, http: 422, error: onUpdate(immutable) });
    // kubectl apply of an edited manifest: the narrowed selector also stops matching the labels, both are reported.
    const edited = { ...before, metadata: { name: 'fixed' }, status: undefined, spec: { ...before.spec, selector: { matchLabels: { app: 'fixed', tier: 'web' } } } };
    const viaApply = await denied(['apply', '-f', '-'], manifest(edited));
    assert.equal(viaApply.code, 1);
    assert.equal(viaApply.http, 422);
    assert.ok(viaApply.error?.includes(immutable), viaApply.error);
    assert.ok(viaApply.error?.includes('`selector` does not match template `labels`'), viaApply.error);
    const after = await getCloneSet(w.client, 'fixed');
    assert.deepEqual(after.spec?.selector, { matchLabels: { app: 'fixed' } });
    assert.equal(after.metadata.generation, before.metadata.generation);
    // The mutable fields listed really are: replicas and minReadySeconds in one update.
    const allowed = await w.env.kubectl(['patch', 'clone', 'fixed', '--type=merge', '-p', JSON.stringify({ spec: { replicas: 2, minReadySeconds: 1, revisionHistoryLimit: 5 } })]);
    assert.equal(allowed.code, 0, allowed.stderr);
  });

  test('rules of the v1alpha1 path only: OnDelete and progressDeadlineSeconds <= minReadySeconds are refused there, accepted as v1beta1', async () => {
    const alpha = (name: string, spec: Obj) => ({ ...cloneSet(name, { replicas: 0, ...spec }), apiVersion: 'apps.kruise.io/v1alpha1' });
    assert.deepEqual(await create(alpha('alpha-ondelete', { updateStrategy: { type: 'OnDelete' } })), {
      code: 1, http: 422, error: onCreate(`spec.updateStrategy.type: Invalid value: "OnDelete": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'`),
    });
    assert.deepEqual(await create(alpha('alpha-deadline', { minReadySeconds: 10, progressDeadlineSeconds: 5 })), {
      code: 1, http: 422, error: onCreate('spec.progressDeadlineSeconds: Invalid value: 5: must be greater than minReadySeconds'),
    });
    await created(cloneSet('beta-ondelete', { replicas: 0, updateStrategy: { type: 'OnDelete' } }));
    await created(cloneSet('beta-deadline', { replicas: 0, minReadySeconds: 10, progressDeadlineSeconds: 5 }));

    await created(alpha('alpha-only', { updateStrategy: { type: 'InPlaceOnly' } }));
    const env = await patch('alpha-only', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine', env: [{ name: 'A', value: 'b' }] }] } } } },
      'merge', 'clonesets.v1alpha1.apps.kruise.io');
    assert.deepEqual(env, { code: 1, http: 422, error: onUpdate('spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env') });
  });
});
