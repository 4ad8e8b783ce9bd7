/**
 * CloneSet feature-gate scenarios (docs/design/cloneset.md §15) on a REAL kube-apiserver with
 * `kruise manager` out of process, gates PreparingUpdateAsUpdate and
 * RecreatePodWhenChangeVCTInCloneSetGate on, and the in-place update of two containers in launch-priority
 * order. Skipped, with the reason, when the binaries are not cached.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { realKruiseForSuite } from '../../testing/real-kruise-suite.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>;  

const availability = realControlPlaneAvailable();
const hold = { 'example.io/hold': 'true' };

const cloneSet = (name: string, spec: Obj) => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
  spec: {
    replicas: 2, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
    ...spec,
  },
});
const inPlace = (extra: Obj = {}) => ({ type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: '100%', ...extra } });

describe('CloneSet gates on a real kube-apiserver', { skip: availability.available ? false : availability.reason, timeout: 300_000 }, () => {
  const k = realKruiseForSuite({ name: 'kruise-real-gates', gates: ['PreparingUpdateAsUpdate=true', 'RecreatePodWhenChangeVCTInCloneSetGate=true'] });
  const { json, pods } = k;
  const ready = (app: string) => eventually(`${app}: 2 ready`, async () => {
    const live = await pods(app);
    return live.length === 2 && live.every((p) => p.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True')) ? live : undefined;
  }, 60_000);
  const setImage = (name: string, extra: Obj = {}) => k.json(['patch', 'clonesets.v1beta1.apps.kruise.io', name, '--type', 'merge', '-p',
    JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } }, ...extra } })]);

  test('PreparingUpdateAsUpdate: a pod deleted beside one held in PreparingUpdate comes back at the current revision', async () => {
    await k.apply(cloneSet('pua', { updateStrategy: inPlace({ partition: '99%' }), lifecycle: { inPlaceUpdate: { labelsHandler: hold } } }));
    for (const p of await ready('pua')) await json(['label', 'pod', p.metadata.name, 'example.io/hold=true']);
    await setImage('pua');
    const preparing = await eventually('one pod in PreparingUpdate', async () =>
      (await pods('pua')).find((p) => p.metadata.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingUpdate'), 60_000);
    const other = (await pods('pua')).find((p) => p.metadata.name !== preparing.metadata.name)!;
    const deleted = await k.kubectl(['delete', 'pod', other.metadata.name]);
    assert.equal(deleted.code, 0, deleted.stderr);
    const replacement = await eventually('the replacement', async () =>
      (await pods('pua')).find((p) => p.metadata.name !== preparing.metadata.name && p.metadata.name !== other.metadata.name), 60_000);
    const cs = await json(['get', 'clonesets.v1beta1.apps.kruise.io', 'pua']);
    assert.notEqual(cs.status.currentRevision, cs.status.updateRevision);
    assert.equal(replacement.metadata.labels['controller-revision-hash'], cs.status.currentRevision);
  });

  test('RecreatePodWhenChangeVCTInCloneSetGate: image plus claim-template change recreates the pods and their claims', async () => {
    const claim = (storage: string) => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
    await k.apply(cloneSet('vct', { updateStrategy: inPlace(), volumeClaimTemplates: claim('1Gi') }));
    const before = new Set((await ready('vct')).map((p) => p.metadata.uid as string));
    await setImage('vct', { volumeClaimTemplates: claim('2Gi') });
    await eventually('two new pods with 2Gi claims', async () => {
      const live = await pods('vct');
      const claims = ((await json(['get', 'pvc', '-l', 'app=vct'])).items as Obj[]).filter((c) => !c.metadata.deletionTimestamp);
      return live.length === 2 && live.every((p) => !before.has(p.metadata.uid) && p.spec.containers[0].image === 'nginx:1.26-alpine')
        && claims.length === 2 && claims.every((c) => c.spec.resources.requests.storage === '2Gi') ? live : undefined;
    }, 90_000);
  });

  test('launch priorities: redis (priority 10) is updated in place before nginx, in two recorded batches', async () => {
    const containers = (nginx: string, redis: string) => [
      { name: 'nginx', image: nginx },
      { name: 'redis', image: redis, env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }], lifecycle: { postStart: { exec: { command: ['sleep', '2'] } } } },
    ];
    const spec = (nginx: string, redis: string) => ({ template: { metadata: { labels: { app: 'prio' } }, spec: { containers: containers(nginx, redis) } } });
    await k.apply(cloneSet('prio', { replicas: 1, updateStrategy: inPlace(), ...spec('nginx:1.25-alpine', 'redis:7.2-alpine') }));
    const [before] = await eventually('prio: 1 ready', async () => {
      const live = await pods('prio');
      return live.length === 1 && live[0].status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True') ? live : undefined;
    }, 60_000);
    await json(['patch', 'clonesets.v1beta1.apps.kruise.io', 'prio', '--type', 'merge', '-p', JSON.stringify({ spec: spec('nginx:1.26-alpine', 'redis:7.4-alpine') })]);
    const pod = await eventually('both containers restarted on their new images', async () => {
      const [p] = await pods('prio');
      const st = (c: string) => p?.status?.containerStatuses?.find((s: Obj) => s.name === c);
      return st('nginx')?.image === 'docker.io/library/nginx:1.26-alpine' && st('redis')?.image === 'docker.io/library/redis:7.4-alpine'
        && st('nginx')?.ready && st('redis')?.ready ? p : undefined;
    }, 60_000);
    assert.equal(pod.metadata.uid, before.metadata.uid);
    const state = JSON.parse(pod.metadata.annotations['apps.kruise.io/inplace-update-state']);
    assert.deepEqual(state.containerBatchesRecord.map((b: Obj) => b.containers), [['redis'], ['nginx']]);
  });
});
