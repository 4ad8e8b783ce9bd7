/**
 * What kube-controller-manager puts in every namespace (docs/design/builtin-controllers.md §11, §12):
 * the `default` ServiceAccount and the `kube-root-ca.crt` ConfigMap holding the cluster CA, both
 * recreated when deleted, the ConfigMap's data restored when edited. Seen through real kubectl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { setupCoreControllers } from '../../cluster/controllers/index.js';
import { ROOT_CA_DESCRIPTION } from '../../cluster/controllers/rootcapublisher/index.js';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { eventually, startControllerTestEnv, type ControllerTestEnv } from '../../testing/controller-env.js';

describe('default ServiceAccount and kube-root-ca.crt in every namespace', () => {
  let cp: TestControlPlane;
  let env: ControllerTestEnv;
  let caPem: string;
  before(async () => {
    cp = await startTestControlPlane();
    const kubeconfig = parse(await readFile(cp.kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
    caPem = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString();
    env = await startControllerTestEnv(cp, (mgr) => setupCoreControllers(mgr, { rootCaPem: cp.plane.pki.ca.certPem }));
  });
  after(async () => { await env.stop(); });

  const kubectl = async (...args: string[]) => {
    const r = await cp.kubectl(args);
    return r.code === 0 ? r.stdout : undefined;
  };
  const caOf = (ns: string) => kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', ns, '-o', 'jsonpath={.data.ca\\.crt}');
  const hasDefaultSA = (ns: string) => kubectl('get', 'serviceaccount', 'default', '-n', ns, '-o', 'name');

  test('a new namespace gets both; they carry the CA clients verify the server with', async () => {
    assert.ok(await kubectl('create', 'namespace', 'team-a'));
    assert.equal(await eventually('default SA in team-a', () => hasDefaultSA('team-a')), 'serviceaccount/default\n');
    assert.equal(await eventually('kube-root-ca.crt in team-a', () => caOf('team-a')), caPem);
    const description = await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'team-a', '-o', "jsonpath={.metadata.annotations.kubernetes\\.io/description}");
    assert.equal(description, ROOT_CA_DESCRIPTION);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      assert.ok(await eventually(`default SA in ${ns}`, () => hasDefaultSA(ns)));
      assert.equal(await eventually(`kube-root-ca.crt in ${ns}`, () => caOf(ns)), caPem);
    }
  });

  test('an edited kube-root-ca.crt is restored, deleted ones come back', async () => {
    await eventually('kube-root-ca.crt in default', () => caOf('default'));
    assert.ok(await kubectl('patch', 'configmap', 'kube-root-ca.crt', '-n', 'default', '--type=merge', '-p', '{"data":{"ca.crt":"tampered","extra":"x"}}'));
    await eventually('restored kube-root-ca.crt', async () => {
      const data = await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'default', '-o', 'jsonpath={.data}');
      return data && JSON.stringify(JSON.parse(data)) === JSON.stringify({ 'ca.crt': caPem });
    });
    const uid = await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'default', '-o', 'jsonpath={.metadata.uid}');
    assert.ok(await kubectl('delete', 'configmap', 'kube-root-ca.crt', '-n', 'default'));
    await eventually('a new kube-root-ca.crt', async () => {
      const now = await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'default', '-o', 'jsonpath={.metadata.uid}');
      return now && now !== uid;
    });
    assert.ok(await kubectl('delete', 'serviceaccount', 'default', '-n', 'default'));
    assert.ok(await eventually('default SA recreated', () => hasDefaultSA('default')));
  });
});
