/**
 * Real kubectl (1.32) against a fresh embedded control plane: the everyday commands a platform
 * engineer runs, asserting what they print and what ends up stored.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';
import { kubectlBinary } from '../../testing/kubectl.js';
import { deployment, widgetCrd } from './fixtures.js';

describe('kubectl against kruise up', () => {
  const { env } = controlPlaneForSuite();
  const k = (args: string[], input?: string) => env.kubectl(args, { input });
  const json = async (args: string[]) => {
    const r = await k([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };


  test('version, api-resources and auth can-i', async () => {
    const v = await json(['version']);
    assert.equal(v.serverVersion.minor, '32');
    const res = await k(['api-resources']);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    assert.match(res.stdout, /^pods\s+po\s+v1\s+true\s+Pod$/m);
    const can = await k(['auth', 'can-i', 'create', 'pods']);
    assert.equal(can.code, 0, can.stderr);
    assert.equal(can.stdout.trim(), 'yes');
  });

  test('apply creates, re-apply patches strategically, get prints tables', async () => {
    let r = await k(['apply', '-f', '-'], deployment('nginx:1'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /deployment.apps\/web created/);
    r = await k(['apply', '-f', '-'], deployment('nginx:2'));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /deployment.apps\/web configured/);
    const d = await json(['get', 'deploy', 'web']);
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:2');
    assert.equal(d.spec.template.spec.containers[1].image, 'busybox:1');
    assert.equal(d.metadata.generation, 2);
    assert.equal(d.spec.strategy.rollingUpdate.maxSurge, '25%');
    const table = await k(['get', 'deploy']);
    assert.match(table.stdout, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE/m);
    assert.match(table.stdout, /^web\s+/m);
    const wide = await k(['get', 'deploy', '-o', 'wide']);
    assert.match(wide.stdout, /CONTAINERS\s+IMAGES\s+SELECTOR/);
    assert.match(wide.stdout, /nginx:2,busybox:1/);
    const yaml = await k(['get', 'deploy', 'web', '-o', 'yaml']);
    assert.match(yaml.stdout, /kind: Deployment/);
  });

  test('server-side apply records managers and reports conflicts', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ssa }\ndata: { a: "1" }\n';
    let r = await k(['apply', '--server-side', '-f', '-'], cm);
    assert.equal(r.code, 0, r.stderr);
    r = await k(['apply', '--server-side', '--field-manager', 'other', '-f', '-'], cm.replace('"1"', '"2"'));
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /conflict/i);
    r = await k(['apply', '--server-side', '--force-conflicts', '--field-manager', 'other', '-f', '-'], cm.replace('"1"', '"2"'));
    assert.equal(r.code, 0, r.stderr);
    const obj = await json(['get', 'cm', 'ssa', '--show-managed-fields']);
    assert.equal(obj.data.a, '2');
    assert.ok(obj.metadata.managedFields.some((m: { manager: string }) => m.manager === 'other'));
  });

  test('patch with all three types, label, annotate and scale', async () => {
    assert.equal((await k(['patch', 'deploy', 'web', '--type=merge', '-p', '{"spec":{"minReadySeconds":3}}'])).code, 0);
    assert.equal((await k(['patch', 'deploy', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/revisionHistoryLimit","value":4}]'])).code, 0);
    const smp = await k(['patch', 'deploy', 'web', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"busybox:3"}]}}}}']);
    assert.equal(smp.code, 0, smp.stderr);
    assert.equal((await k(['label', 'deploy', 'web', 'tier=front'])).code, 0);
    assert.equal((await k(['annotate', 'deploy', 'web', 'note=hello'])).code, 0);
    const sc = await k(['scale', 'deploy', 'web', '--replicas=5']);
    assert.equal(sc.code, 0, sc.stderr);
    const d = await json(['get', 'deploy', 'web']);
    assert.equal(d.spec.minReadySeconds, 3);
    assert.equal(d.spec.revisionHistoryLimit, 4);
    assert.deepEqual(d.spec.template.spec.containers.map((c: { image: string }) => c.image), ['nginx:2', 'busybox:3']);
    assert.equal(d.metadata.labels.tier, 'front');
    assert.equal(d.metadata.annotations.note, 'hello');
    assert.equal(d.spec.replicas, 5);
  });

  test('edit through KUBE_EDITOR and describe', async () => {
    const editor = path.join(env.dir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i "s/note: hello/note: edited/" "$1"\n');
    await chmod(editor, 0o755);
    const r = await env.kubectl(['edit', 'deploy', 'web'], { env: { KUBE_EDITOR: editor } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await json(['get', 'deploy', 'web'])).metadata.annotations.note, 'edited');
    const desc = await k(['describe', 'deploy', 'web']);
    assert.equal(desc.code, 0, desc.stderr);
    assert.match(desc.stdout, /Name:\s+web/);
  });

  test('get -w streams events', async () => {
    const watcher = spawn(kubectlBinary(), ['--kubeconfig', env.kubeconfig, '--cache-dir', path.join(env.dir, 'kube-cache'), 'get', 'configmaps', '-w', '--output-watch-events']);
    let out = '';
    watcher.stdout.on('data', (c) => { out += c; });
    await waitFor(() => /ssa/.test(out));
    await k(['create', 'configmap', 'watched', '--from-literal=x=1']);
    await waitFor(() => /ADDED\s+watched/.test(out));
    watcher.kill();
  });

  test('wait for a condition and for deletion', async () => {
    await k(['apply', '-f', '-'], widgetCrd);
    const w = await k(['wait', '--for=condition=established', 'crd/widgets.example.com', '--timeout=20s']);
    assert.equal(w.code, 0, w.stderr);
    await k(['create', 'configmap', 'doomed']);
    const waiting = k(['wait', '--for=delete', 'configmap/doomed', '--timeout=20s']);
    await k(['delete', 'configmap', 'doomed', '--wait=false']);
    const done = await waiting;
    assert.equal(done.code, 0, done.stderr);
  });

  test('custom resources: printer columns, defaults, scale, explain and validation', async () => {
    const cr = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w1 }\nspec: { color: red, size: "10%" }\n';
    const created = await k(['apply', '-f', '-'], cr);
    assert.equal(created.code, 0, created.stderr);
    const w = await json(['get', 'widget', 'w1']);
    assert.equal(w.spec.replicas, 1, 'schema default applied');
    const table = await k(['get', 'wd']);
    assert.match(table.stdout, /^NAME\s+REPLICAS\s+COLOR\s+AGE/m);
    assert.match(table.stdout, /^w1\s+1\s+red\s+/m);
    const sc = await k(['scale', 'widget', 'w1', '--replicas=3']);
    assert.equal(sc.code, 0, sc.stderr);
    assert.equal((await json(['get', 'widget', 'w1'])).spec.replicas, 3);
    const bad = await k(['apply', '-f', '-'], cr.replace('w1', 'w2').replace('red', 'purple'));
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.color: Unsupported value: "purple"/);
    const unknown = await k(['apply', '-f', '-'], cr.replace('w1', 'w3').replace('color: red', 'color: red, bogus: 1'));
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /unknown field "spec\.bogus"/);
    const explain = await k(['explain', 'widgets.spec']);
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /color/);
  });

  test('delete cascades: background, foreground and orphan', async () => {
    for (const [cascade, survives] of [['background', false], ['foreground', false], ['orphan', true]] as const) {
      const owner = await json(['create', 'configmap', `owner-${cascade}`]);
      const dep = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `dep-${cascade}`, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid, blockOwnerDeletion: true }] } };
      assert.equal((await k(['create', '-f', '-'], JSON.stringify(dep))).code, 0);
      const del = await k(['delete', 'configmap', owner.metadata.name, `--cascade=${cascade}`, '--timeout=20s']);
      assert.equal(del.code, 0, del.stderr);
      await waitFor(async () => {
        const r = await k(['get', 'configmap', `dep-${cascade}`, '-o', 'json']);
        if (survives) return r.code === 0 && !JSON.parse(r.stdout).metadata.ownerReferences;
        return r.code !== 0 && /NotFound/.test(r.stderr);
      });
    }
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not reached in time');
}
