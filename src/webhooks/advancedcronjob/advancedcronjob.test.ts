import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { admissionInput, admit, assertHasError, assertNoErrors, fromYaml } from '../testkit.js';
import { advancedCronJobWebhooks as hooks } from './index.js';

type Spec = Record<string, any>; // any: free-form test edits of manifests
const example = (list: { name: string; yaml: string }[], name: string): KObject => fromYaml(list.find((e) => e.name.includes(name))!.yaml);
const bcjCron = (): KObject => example(specExamples, 'acj-b');
const ilpjCron = (): KObject => example(scenarioExamples, 'ImageListPullJob template');
const edit = (obj: KObject, patch: (spec: Spec) => void): KObject => {
  const copy = structuredClone(obj);
  patch(copy.spec as Spec);
  return copy;
};
const ilpjSpec = (s: Spec): Spec => s.template.imageListPullJobTemplate.spec;

describe('AdvancedCronJob defaulting', () => {
  test('a minimal BroadcastJob cron gets every default and no status', async () => {
    const out = await hooks.default!(admissionInput({ object: { ...bcjCron(), status: { type: 'Job' } } })) as any; // any: reading nested defaults
    assert.equal(out.spec.concurrencyPolicy, 'Allow');
    assert.equal(out.spec.paused, false);
    assert.equal(out.spec.successfulJobsHistoryLimit, 3);
    assert.equal(out.spec.failedJobsHistoryLimit, 1);
    const pod = out.spec.template.broadcastJobTemplate.spec.template.spec;
    assert.equal(pod.dnsPolicy, 'ClusterFirst');
    assert.equal(pod.containers[0].imagePullPolicy, 'Always');
    assert.equal(out.status, undefined);
  });

  test('a Job template gets pod defaults unless TemplateNoDefaults', async () => {
    const job = example(scenarioExamples, 'Job template');
    const out = await hooks.default!(admissionInput({ object: job })) as any; // any: reading nested defaults
    assert.equal(out.spec.template.jobTemplate.spec.template.spec.schedulerName, 'default-scheduler');
    assert.equal(out.spec.concurrencyPolicy, 'Forbid');
    const off = await hooks.default!(admissionInput({ object: job, gates: { TemplateNoDefaults: true } })) as any; // any: as above
    assert.equal(off.spec.template.jobTemplate.spec.template.spec.schedulerName, undefined);
  });

  test('an ImageListPullJob template without completion type gets Replace and pull defaults', async () => {
    const obj = edit(ilpjCron(), (s) => { delete ilpjSpec(s).completionPolicy; delete ilpjSpec(s).pullPolicy; });
    const out = await hooks.default!(admissionInput({ object: obj })) as any; // any: reading nested defaults
    assert.equal(out.spec.concurrencyPolicy, 'Replace');
    assert.deepEqual(ilpjSpec(out.spec).completionPolicy, { type: 'Always' });
    assert.deepEqual(ilpjSpec(out.spec).pullPolicy, { timeoutSeconds: 600, backoffLimit: 3 });
    assert.equal(ilpjSpec(out.spec).imagePullPolicy, 'IfNotPresent');
    const typed = await hooks.default!(admissionInput({ object: edit(ilpjCron(), (s) => { delete ilpjSpec(s).pullPolicy; }) })) as any; // any: as above
    assert.equal(ilpjSpec(typed.spec).pullPolicy, undefined, 'completionPolicy.type set: template left alone');
  });
});

describe('AdvancedCronJob validation', () => {
  const invalid: [string, KObject, string, string][] = [
    ['timeZone Local', edit(bcjCron(), (s) => { s.timeZone = 'Local'; }), 'spec.timeZone', 'timeZone must be an explicit time zone'],
    ['unknown timeZone', edit(bcjCron(), (s) => { s.timeZone = 'Mars/Olympus'; }), 'spec.timeZone', 'unknown time zone Mars/Olympus'],
    ['empty timeZone', edit(bcjCron(), (s) => { s.timeZone = ''; }), 'spec.timeZone', 'timeZone must be nil or non-empty string'],
    ['TZ in schedule plus timeZone', edit(bcjCron(), (s) => { s.schedule = 'TZ=UTC 0 * * * *'; s.timeZone = 'UTC'; }),
      'spec.schedule', 'cannot use both timeZone field and TZ or CRON_TZ in schedule'],
    ['empty schedule', edit(bcjCron(), (s) => { s.schedule = ''; }), 'spec.schedule', 'schedule cannot be empty'],
    ['four fields', edit(bcjCron(), (s) => { s.schedule = '* * * *'; }), 'spec.schedule', 'expected exactly 5 fields, found 4'],
    ['minute 61', edit(bcjCron(), (s) => { s.schedule = '61 * * * *'; }), 'spec.schedule', 'end of range (61) above maximum (59): 61'],
    ['bad descriptor', edit(bcjCron(), (s) => { s.schedule = '@fortnightly'; }), 'spec.schedule', 'unrecognized descriptor: @fortnightly'],
    ['unknown TZ prefix', edit(bcjCron(), (s) => { s.schedule = 'TZ=Nowhere/City 0 * * * *'; }), 'spec.schedule', 'provided bad location Nowhere/City'],
    ['negative history limit', edit(bcjCron(), (s) => { s.successfulJobsHistoryLimit = -1; }), 'spec.successfulJobsHistoryLimit', 'must be greater than or equal to 0'],
    ['negative starting deadline', edit(bcjCron(), (s) => { s.startingDeadlineSeconds = -5; }), 'spec.startingDeadlineSeconds', 'must be greater than or equal to 0'],
    ['no template', edit(bcjCron(), (s) => { s.template = {}; }), 'spec.template', 'spec must have one template'],
    ['two templates', edit(bcjCron(), (s) => { s.template.jobTemplate = { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'b' }] } } } }; }),
      'spec.template', 'only one template'],
    ['BroadcastJob pod template without containers', edit(bcjCron(), (s) => { s.template.broadcastJobTemplate.spec.template.spec.containers = []; }),
      'spec.template.broadcastJobTemplate.spec.template.spec.containers', 'Required value'],
    ['ImageListPullJob with concurrencyPolicy Allow', edit(ilpjCron(), (s) => { s.concurrencyPolicy = 'Allow'; }),
      'spec.concurrencyPolicy', 'concurrencyPolicy must be Replace or Forbid'],
    ['ImageListPullJob with ttlSecondsAfterFinished', edit(ilpjCron(), (s) => { ilpjSpec(s).completionPolicy.ttlSecondsAfterFinished = 60; }),
      'spec.template.imageListPullJobTemplate.spec.completionPolicy.ttlSecondsAfterFinished', 'ttlSecondsAfterFinished is not supported'],
    ['ImageListPullJob with completion Never', edit(ilpjCron(), (s) => { ilpjSpec(s).completionPolicy = { type: 'Never' }; }),
      'spec.template.imageListPullJobTemplate.spec.completionPolicy.type', 'completionPolicy only support Always'],
    ['ImageListPullJob deadline over a day', edit(ilpjCron(), (s) => { ilpjSpec(s).completionPolicy.activeDeadlineSeconds = 86401; }),
      'spec.template.imageListPullJobTemplate.spec.completionPolicy.activeDeadlineSeconds', 'must be less than or equal to 86400'],
    ['ImageListPullJob deadline below the pull timeout', edit(ilpjCron(), (s) => { ilpjSpec(s).completionPolicy.activeDeadlineSeconds = 300; }),
      'spec.template.imageListPullJobTemplate.spec.completionPolicy.activeDeadlineSeconds', 'pullPolicy.timeoutSeconds (600)'],
    ['ImageListPullJob without images', edit(ilpjCron(), (s) => { ilpjSpec(s).images = []; }),
      'spec.template.imageListPullJobTemplate.spec.images', 'image can not be empty'],
    ['ImageListPullJob duplicate images', edit(ilpjCron(), (s) => { ilpjSpec(s).images = ['nginx:1.25', 'nginx:1.25']; }),
      'spec.template.imageListPullJobTemplate.spec.images', 'images cannot have duplicate values'],
    ['ImageListPullJob upper-case image', edit(ilpjCron(), (s) => { ilpjSpec(s).images = ['Nginx:1.25']; }),
      'spec.template.imageListPullJobTemplate.spec.images[0]', 'invalid image Nginx:1.25: repository name must be lowercase'],
    ['ImageListPullJob names and labels', edit(ilpjCron(), (s) => { ilpjSpec(s).selector = { names: ['n1'], matchLabels: { a: 'b' } }; }),
      'spec.template.imageListPullJobTemplate.spec.selector', 'can not set both names and labelSelector'],
    ['ImageListPullJob duplicate node names', edit(ilpjCron(), (s) => { ilpjSpec(s).selector = { names: ['n1', 'n1'] }; }),
      'spec.template.imageListPullJobTemplate.spec.selector.names', 'duplicated name in selector names'],
    ['ImageListPullJob selector and podSelector', edit(ilpjCron(), (s) => { ilpjSpec(s).selector = { names: ['n1'] }; ilpjSpec(s).podSelector = { matchLabels: { a: 'b' } }; }),
      'spec.template.imageListPullJobTemplate.spec.podSelector', 'can not set both selector and podSelector'],
    ['name with a dot', { ...bcjCron(), metadata: { name: 'acj.b', namespace: 't' } }, 'metadata.name', "AdvancedCronJob name must consist of alphanumeric characters or '-'"],
  ];
  for (const [name, obj, path, fragment] of invalid) {
    test(`rejects: ${name}`, async () => assertHasError((await admit(hooks, admissionInput({ object: obj }))).errors, path, fragment));
  }

  test('accepts the spec and scenario manifests and every schedule form', async () => {
    const schedules = ['@hourly', '@every 1h30m', 'CRON_TZ=Asia/Shanghai 0 9 * * *', '0 9 * * MON-FRI', '*/15 0-6,22 1 JAN,jul ?', '5/10 * * * *'];
    const valid = [
      bcjCron(), example(scenarioExamples, 'Job template'), ilpjCron(),
      edit(bcjCron(), (s) => { s.timeZone = 'Asia/Shanghai'; s.schedule = '0 9 * * *'; }),
      ...schedules.map((schedule) => edit(bcjCron(), (s) => { s.schedule = schedule; })),
    ];
    for (const obj of valid) assertNoErrors((await admit(hooks, admissionInput({ object: obj }))).errors);
  });

  test('update: schedule may change, the template may not', async () => {
    const stored = (await admit(hooks, admissionInput({ object: bcjCron() }))).object;
    for (const change of [(s: Spec) => { s.schedule = '0 * * * *'; }, (s: Spec) => { s.paused = true; s.concurrencyPolicy = 'Forbid'; s.timeZone = 'UTC'; }]) {
      assertNoErrors((await admit(hooks, admissionInput({ object: edit(stored, change), oldObject: stored }))).errors);
    }
    const parallelism = edit(stored, (s) => { s.template.broadcastJobTemplate.spec.parallelism = 1; });
    assertHasError((await admit(hooks, admissionInput({ object: parallelism, oldObject: stored }))).errors,
      'spec', 'Forbidden: updates to advancedcronjob spec for fields other than');
  });

  test('update: an existing ImageListPullJob template may change', async () => {
    const stored = (await admit(hooks, admissionInput({ object: ilpjCron() }))).object;
    const moreImages = edit(stored, (s) => { ilpjSpec(s).images.push('redis:7'); });
    assertNoErrors((await admit(hooks, admissionInput({ object: moreImages, oldObject: stored }))).errors);
  });

  test('answers 422', () => assert.equal(hooks.invalidCode, 422));
});
