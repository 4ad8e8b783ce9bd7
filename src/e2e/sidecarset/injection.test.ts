/**
 * SidecarSet injection through the API with the pod webhook over HTTPS (docs/design/sidecarset.md
 * §9 S1-S3, S7-S9, S11, S12): a bare pod, a CloneSet's and a Deployment's pods get the manual's
 * first SidecarSet; placement, shared volumes, transferred env, namespace selection, pausing,
 * native sidecars, metadata patches, pull secrets and hot-upgrade slots.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isConflict } from '../../machinery/errors.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { ConfigMaps, Deployments, Namespaces } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import {
  appPod, container, createPod, deleteSidecarSets, envOf, eventually, getSet, logAgent, names, ns, Pods, SidecarSets, startSidecarEnv, type Pod,
} from './fixtures.js';

const hashEntry = (pod: Pod, key: string, set: string) => (JSON.parse(pod.metadata.annotations![key]!) as Record<string, Record<string, unknown>>)[set];

describe('SidecarSet injection', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv(); });
  after(() => w.stop());
  afterEach(() => deleteSidecarSets(w.client));

  test('S1: a labelled bare pod gets agent before main, IS_INJECTED, the volume and the three annotations; status counts it', async () => {
    const set = await w.client.create(SidecarSets, logAgent());
    const pod = await createPod(w.client, appPod('s1'));
    assert.deepEqual(names(pod), ['agent', 'main']);
    assert.deepEqual(envOf(pod, 'agent', 'IS_INJECTED'), { name: 'IS_INJECTED', value: 'true' });
    assert.equal(envOf(pod, 'main', 'IS_INJECTED'), undefined);
    assert.deepEqual(pod.spec.volumes?.find((v) => v.name === 'logs')?.emptyDir, {});
    assert.equal(container(pod, 'agent')?.image, 'busybox:1.35');
    assert.deepEqual(container(pod, 'agent')?.command, ['sleep', '3600']);
    const a = pod.metadata.annotations!;
    assert.equal(a['kruise.io/sidecarset-injected-list'], 'log-agent');
    const hash = hashEntry(pod, 'kruise.io/sidecarset-hash', 'log-agent')!;
    assert.equal(hash.hash, set.metadata.annotations!['kruise.io/sidecarset-hash']);
    assert.equal(hash.sidecarSetName, 'log-agent');
    assert.deepEqual(hash.sidecarList, ['agent']);
    assert.match(String(hash.updateTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(Object.keys(hash).slice(0, 4), ['updateTimestamp', 'hash', 'sidecarSetName', 'sidecarList'], 'upstream field order');
    const withoutImage = hashEntry(pod, 'kruise.io/sidecarset-hash-without-image', 'log-agent')!;
    assert.equal(withoutImage.hash, set.metadata.annotations!['kruise.io/sidecarset-hash-without-image']);
    assert.equal(withoutImage.controllerRevision, undefined);
    await eventually('matchedPods=1 and readyPods=1 once the pod runs', async () => {
      const s = (await getSet(w.client, 'log-agent')).status;
      return s?.matchedPods === 1 && s.readyPods === 1 && s.updatedPods === 1 && s.updatedReadyPods === 1 && s.latestRevision?.startsWith('log-agent-');
    });
  });

  test('S2: a pod without the label is unchanged; an empty selector is rejected', async () => {
    await w.client.create(SidecarSets, logAgent());
    const pod = await createPod(w.client, appPod('s2', { app: 'other' }));
    assert.deepEqual(names(pod), ['main']);
    assert.equal(pod.metadata.annotations?.['kruise.io/sidecarset-injected-list'], undefined);
    await assert.rejects(w.client.create(SidecarSets, logAgent('empty', 'web', { selector: {} })), /empty selector is not valid for sidecarset\./);
  });

  test('CloneSet and Deployment pods get the sidecar and are counted as matched', async () => {
    await w.client.create(SidecarSets, logAgent());
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } };
    await w.client.create(CloneSets, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'cs', namespace: ns },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template } });
    await w.client.create(Deployments, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep', namespace: ns },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web', from: 'dep' } }, template: { ...template, metadata: { labels: { app: 'web', from: 'dep' } } } } });
    const pods = await eventually('4 running pods with agent', async () => {
      const list = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=web' })).items
        .filter((p) => p.metadata.ownerReferences?.length);
      return list.length === 4 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
    }, 30_000);
    for (const p of pods) assert.deepEqual(names(p), ['agent', 'main'], p.metadata.name);
    await eventually('matchedPods=4', async () => (await getSet(w.client, 'log-agent')).status?.matchedPods === 4, 20_000);
    await w.client.delete(CloneSets, ns, 'cs');
    await w.client.delete(Deployments, ns, 'dep');
  });

  test('S3: namespaceSelector misses a namespace without the label; v1alpha1 namespace becomes a namespaceSelector', async () => {
    await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } });
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { namespaceSelector: { matchLabels: { team: 'a' } } }));
    assert.deepEqual(names(await createPod(w.client, appPod('s3b', undefined, {}, {}, 'team-b'))), ['main']);
    assert.deepEqual(names(await createPod(w.client, appPod('s3a', undefined, {}, {}, 'team-a'))), ['agent', 'main']);
    const alpha = { ...logAgent('alpha-agent', 'alpha'), apiVersion: 'apps.kruise.io/v1alpha1', spec: { ...logAgent('x', 'alpha').spec, namespace: 'team-b' } };
    await w.env.kubectl(['apply', '-f', '-'], { input: JSON.stringify(alpha) });
    const stored = await getSet(w.client, 'alpha-agent');
    assert.deepEqual(stored.spec?.namespaceSelector, { matchLabels: { 'kubernetes.io/metadata.name': 'team-b' } });
    assert.deepEqual(names(await createPod(w.client, appPod('s3c', { app: 'alpha' }, {}, {}, 'team-b'))), ['agent', 'main']);
    assert.deepEqual(names(await createPod(w.client, appPod('s3d', { app: 'alpha' }, {}, {}, 'team-a'))), ['main']);
  });

  test('S7: injectionStrategy.paused injects nothing', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { injectionStrategy: { paused: true } }));
    assert.deepEqual(names(await createPod(w.client, appPod('s7'))), ['main']);
  });

  test('S8: AfterAppContainer puts agent after main; shareVolumePolicy shares main\'s mounts', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', {}, { podInjectPolicy: 'AfterAppContainer', shareVolumePolicy: { type: 'enabled' } }));
    const pod = await createPod(w.client, appPod('s8', undefined, { volumeMounts: [{ name: 'data', mountPath: '/data' }] }, { volumes: [{ name: 'data', emptyDir: {} }] }));
    assert.deepEqual(names(pod), ['main', 'agent']);
    assert.deepEqual(container(pod, 'agent')?.volumeMounts?.map((m) => m.mountPath), ['/var/log/app', '/data']);
  });

  test('S9: transferEnv copies TZ from main; a missing source or variable is skipped; own definitions win', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', {}, {
      env: [{ name: 'OWN', value: 'agent' }],
      transferEnv: [{ sourceContainerName: 'main', envName: 'TZ' }, { sourceContainerName: 'main', envNames: ['OWN', 'NOPE'] }, { sourceContainerName: 'ghost', envName: 'X' }],
    }));
    const pod = await createPod(w.client, appPod('s9', undefined, { env: [{ name: 'TZ', value: 'Asia/Shanghai' }, { name: 'OWN', value: 'main' }] }));
    assert.deepEqual(container(pod, 'agent')?.env, [
      { name: 'OWN', value: 'agent' }, { name: 'IS_INJECTED', value: 'true' }, { name: 'TZ', value: 'Asia/Shanghai' },
    ]);
  });

  test('S11: overlapping SidecarSets may not share a container name; an identical volume is fine; containers cannot be added', async () => {
    await w.client.create(SidecarSets, logAgent());
    await assert.rejects(w.client.create(SidecarSets, logAgent('other')), /container agent already exist in log-agent/);
    await w.client.create(SidecarSets, logAgent('other', 'web', {}, { name: 'shipper' }));
    const pod = await createPod(w.client, appPod('s11'));
    assert.deepEqual(names(pod), ['agent', 'shipper', 'main']);
    assert.equal(pod.metadata.annotations?.['kruise.io/sidecarset-injected-list'], 'log-agent,other');
    assert.equal(pod.spec.volumes?.filter((v) => v.name === 'logs').length, 1);
    // the controller may write the SidecarSet's status meanwhile: a conflict is retried, as a client would
    const addContainer = async (): Promise<unknown> => {
      const current = await getSet(w.client, 'log-agent');
      return w.client.update(SidecarSets, { ...current, spec: { ...current.spec, containers: [...current.spec!.containers!, { name: 'x', image: 'busybox' }] } } as never)
        .catch((e: unknown) => (isConflict(e) ? addContainer() : Promise.reject(e)));
    };
    await assert.rejects(addContainer(), /container x is not found/);
  });

  test('S12: a native sidecar needs NotUpdate and is injected as an init container', async () => {
    const native = { initContainers: [{ name: 'n', image: 'busybox', restartPolicy: 'Always' }], containers: [] };
    await assert.rejects(w.client.create(SidecarSets, logAgent('native', 'web', native)), /The initContainer in-place upgrade is not currently supported\./);
    await w.client.create(SidecarSets, logAgent('native', 'web', { ...native, updateStrategy: { type: 'NotUpdate' } }));
    const pod = await createPod(w.client, appPod('s12', undefined, {}, { initContainers: [{ name: 'setup', image: 'busybox' }] }));
    assert.deepEqual(pod.spec.initContainers?.map((c) => c.name), ['setup', 'n']);
    assert.equal(pod.spec.initContainers?.[1]?.restartPolicy, 'Always');
    assert.deepEqual(names(pod), ['main']);
    assert.deepEqual(hashEntry(pod, 'kruise.io/sidecarset-hash', 'native')?.sidecarList, ['n']);
  });

  test('patchPodMetadata within the whitelist, imagePullSecrets merged by name, hot-upgrade slots', async () => {
    await w.client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
      data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^oom/.*', '^cfg$'] }] }) } });
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', {
      imagePullSecrets: [{ name: 'reg' }, { name: 'shared' }],
      patchPodMetadata: [{ annotations: { 'oom/score': '-998' } }, { patchPolicy: 'MergePatchJson', annotations: { cfg: '{"b":2}' } }],
    }, { name: 'envoy', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } }));
    const pod = await createPod(w.client, { ...appPod('meta', undefined, {}, { imagePullSecrets: [{ name: 'shared' }] }),
      metadata: { name: 'meta', namespace: ns, labels: { app: 'web' }, annotations: { 'oom/score': 'mine', cfg: '{"a":1}' } } });
    const a = pod.metadata.annotations!;
    assert.equal(a['oom/score'], 'mine', 'Retain keeps the pod\'s value');
    assert.deepEqual(JSON.parse(a.cfg!), { a: 1, b: 2 });
    assert.deepEqual(pod.spec.imagePullSecrets, [{ name: 'shared' }, { name: 'reg' }]);
    assert.deepEqual(names(pod), ['envoy-1', 'envoy-2', 'main']);
    assert.equal(container(pod, 'envoy-1')?.image, 'busybox:1.35');
    assert.equal(container(pod, 'envoy-2')?.image, 'empty:1');
    assert.equal(a['kruise.io/sidecarset-working-hotupgrade-container'], '{"envoy":"envoy-1"}');
    assert.deepEqual([a['version.sidecarset.kruise.io/envoy-1'], a['versionalt.sidecarset.kruise.io/envoy-1'], a['version.sidecarset.kruise.io/envoy-2'], a['versionalt.sidecarset.kruise.io/envoy-2']], ['1', '0', '0', '1']);
    assert.deepEqual(envOf(pod, 'envoy-2', 'SIDECARSET_VERSION')?.valueFrom?.fieldRef?.fieldPath, "metadata.annotations['version.sidecarset.kruise.io/envoy-2']");
    await w.client.delete(ConfigMaps, 'kruise-system', 'kruise-configuration');
  });

  test('injectionStrategy.revision: a new pod gets the named historical revision, recorded as its controllerRevision', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', { updateStrategy: { paused: true } }));
    const first = await eventually('first revision', async () => (await getSet(w.client, 'log-agent')).status?.latestRevision);
    await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { containers: [{ ...logAgent().spec!.containers![0], image: 'busybox:1.36' }] } });
    await eventually('second revision', async () => { const s = await getSet(w.client, 'log-agent'); return s.status?.observedGeneration === s.metadata.generation && s.status?.latestRevision !== first; });
    assert.equal(container(await createPod(w.client, appPod('rev-latest')), 'agent')?.image, 'busybox:1.36');
    await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { injectionStrategy: { revision: { revisionName: first, policy: 'Always' } } } });
    const pod = await createPod(w.client, appPod('rev-old'));
    assert.equal(container(pod, 'agent')?.image, 'busybox:1.35');
    assert.equal(hashEntry(pod, 'kruise.io/sidecarset-hash', 'log-agent')?.controllerRevision, first);
  });
});
