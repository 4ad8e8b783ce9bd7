/** `kruise install` on a fresh cluster serves every Kruise kind with OpenKruise's names. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { kruiseKinds } from '../../api/kruise/index.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/kruise.js');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? 1 : 0, stdout, stderr });
    });
  });
}

describe('kruise install', () => {
  let env: TestControlPlane;
  before(async () => { env = await startTestControlPlane(); });
  after(async () => { await env.stop(); });

  test('applies CRDs, namespace and RBAC; re-running is an upgrade, not an error', async () => {
    const first = await run(['install', '--kubeconfig', env.kubeconfig]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /customresourcedefinition\/clonesets\.apps\.kruise\.io applied/);
    const again = await run(['install', '--kubeconfig', env.kubeconfig]);
    assert.equal(again.code, 0, again.stderr);
    const ns = await env.kubectl(['get', 'ns', 'kruise-system']);
    assert.equal(ns.code, 0, ns.stderr);
  });

  test('every Kruise resource is in api-resources with its short names', async () => {
    const wait = await env.kubectl(['wait', '--for=condition=established', '--timeout=30s', ...kruiseKinds.map((k) => `crd/${k.plural}.${k.group}`)]);
    assert.equal(wait.code, 0, wait.stderr);
    const out = (await env.kubectl(['api-resources', '--api-group=apps.kruise.io'])).stdout + (await env.kubectl(['api-resources', '--api-group=policy.kruise.io'])).stdout;
    for (const k of kruiseKinds) {
      const line = out.split('\n').find((l) => l.startsWith(`${k.plural} `));
      assert.ok(line, `${k.plural} missing from api-resources`);
      for (const short of k.shortNames ?? []) assert.match(line, new RegExp(`\\b${short}\\b`), `${k.plural} lacks short name ${short}`);
      assert.match(line, new RegExp(`\\b${k.kind}$`));
    }
    assert.match(out, /^clonesets\s+clone\s+apps\.kruise\.io\/v1beta1\s+true\s+CloneSet$/m);
  });

  test('kubectl explain reads the generated schemas', async () => {
    const r = await env.kubectl(['explain', 'clonesets.spec.updateStrategy']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /VERSION:\s+v1beta1/);
    assert.match(r.stdout, /rollingUpdate/);
    const rolling = await env.kubectl(['explain', 'clonesets.spec.updateStrategy.rollingUpdate']);
    assert.match(rolling.stdout, /partition/);
    assert.match(rolling.stdout, /maxUnavailable/);
    const alpha = await env.kubectl(['explain', 'clonesets.spec.updateStrategy', '--api-version=apps.kruise.io/v1alpha1']);
    assert.match(alpha.stdout, /partition/, 'v1alpha1 keeps the flat update fields');
  });

  test('kruise crds prints one CRD per kind', async () => {
    const r = await run(['crds']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.match(/^kind: CustomResourceDefinition$/gm)?.length, kruiseKinds.length);
  });
});
