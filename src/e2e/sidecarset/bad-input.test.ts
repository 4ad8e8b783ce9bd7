/**
 * Bad input around SidecarSets as a kubectl user meets it (docs/design/sidecarset.md §9 "bad
 * input"): conflicting SidecarSets and patchPodMetadata outside the whitelist are refused with
 * upstream's messages and nothing is stored; a pod whose metadata patch cannot be merged is refused
 * and not created (never half-injected). Where upstream accepts (an app container with a sidecar's
 * name, a transferEnv source that does not exist), the test pins what upstream does instead.
 */
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { stringify } from 'yaml';
import { ConfigMaps } from '../../api/resource-type.js';
import { isNotFound } from '../../machinery/errors.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { appPod, container, createPod, deleteSidecarSets, envOf, logAgent, names, ns, Pods, SidecarSets, startSidecarEnv } from './fixtures.js';

describe('SidecarSet bad input', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ nodes: 1 }); });
  after(() => w.stop());
  afterEach(() => deleteSidecarSets(w.client));

  const kubectlCreate = (obj: unknown) => w.env.kubectl(['create', '-f', '-'], { input: stringify(obj) });
  const notStored = async (name: string) => assert.ok(await w.client.get(SidecarSets, undefined, name).then(() => false, isNotFound), `${name} not stored`);

  test('a second SidecarSet selecting the same pods with the same container name is refused', async () => {
    await w.client.create(SidecarSets, logAgent());
    const r = await kubectlCreate(logAgent('log-agent-2', 'web', { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }));
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server: error when creating "STDIN": admission webhook "vsidecarset.kb.io" denied the request: '
      + 'spec.containers: Invalid value: "agent": container agent already exist in log-agent');
    await notStored('log-agent-2');
    const disjoint = await kubectlCreate(logAgent('log-agent-3', 'api'));
    assert.equal(disjoint.code, 0, disjoint.stderr);
  });

  test('a volume of the same name with another definition is refused', async () => {
    await w.client.create(SidecarSets, logAgent());
    const r = await kubectlCreate(logAgent('other', 'web', { volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }] }, { name: 'shipper' }));
    assert.match(r.stderr, /spec\.volumes: Invalid value: "logs": volume logs is in conflict with sidecarset log-agent/);
    await notStored('other');
  });

  test('patchPodMetadata without a whitelist, or with a key outside it, is refused', async () => {
    const patched = logAgent('meta', 'web', { patchPodMetadata: [{ annotations: { 'oom/score': '1' } }] });
    const none = await kubectlCreate(patched);
    assert.match(none.stderr, /admission webhook "vsidecarset\.kb\.io" denied the request: spec\.patchPodMetadata: Required value: SidecarSet patch metadata whitelist not found/);
    await w.client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
      data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^cfg$'] }] }) } });
    try {
      const outside = await kubectlCreate(patched);
      assert.match(outside.stderr, /sidecarSet patch metadata annotation\(oom\/score\) is not allowed/);
      await notStored('meta');
    } finally {
      await w.client.delete(ConfigMaps, 'kruise-system', 'kruise-configuration');
    }
  });

  test('a pod whose annotation cannot take the MergePatchJson patch is refused and not created', async () => {
    await w.client.create(ConfigMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' },
      data: { SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^cfg$'] }] }) } });
    try {
      await w.client.create(SidecarSets, logAgent('log-agent', 'web', { patchPodMetadata: [{ patchPolicy: 'MergePatchJson', annotations: { cfg: '{"b":2}' } }] }));
      const pod = { ...appPod('bad-cfg'), metadata: { name: 'bad-cfg', namespace: ns, labels: { app: 'web' }, annotations: { cfg: 'not json' } } };
      await assert.rejects(createPod(w.client, pod), /admission webhook "mpod\.kb\.io" denied the request: patch pod annotation cfg \(MergePatchJson\) failed: Unexpected token/);
      await assert.rejects(w.client.get(Pods, ns, 'bad-cfg'), isNotFound);
    } finally {
      await w.client.delete(ConfigMaps, 'kruise-system', 'kruise-configuration');
    }
  });

  test('upstream accepts: an app container named like the sidecar is replaced where it stands; a missing transferEnv source is skipped', async () => {
    await w.client.create(SidecarSets, logAgent('log-agent', 'web', {}, { transferEnv: [{ sourceContainerName: 'ghost', envName: 'TZ' }] }));
    const pod = await createPod(w.client, { ...appPod('clash'), spec: { containers: [{ name: 'main', image: 'nginx:1.25' }, { name: 'agent', image: 'mine:1' }] } });
    assert.deepEqual(names(pod), ['main', 'agent']);
    assert.equal(container(pod, 'agent')?.image, 'busybox:1.35');
    assert.equal(envOf(pod, 'agent', 'TZ'), undefined);
  });
});
