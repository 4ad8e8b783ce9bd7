/**
 * Smoke test of the real control plane launcher: kubectl 1.32 lists namespaces, and a namespace
 * deletion completes (which needs kube-controller-manager). Skipped, with the reason, when the
 * binaries have not been built (scripts/real-control-plane.sh build).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { kubectlFor } from './kubectl.js';
import { realControlPlaneAvailable, startRealControlPlane } from './real-control-plane.js';

test('real control plane: kubectl lists namespaces and namespace deletion completes', { timeout: 240_000 }, async (t) => {
  const availability = realControlPlaneAvailable();
  if (!availability.available) {
    t.skip(availability.reason);
    return;
  }
  const plane = await startRealControlPlane();
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'k8s-real-kubectl-'));
  try {
    assert.match(plane.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(plane.caPem, /BEGIN CERTIFICATE/);
    const kubectl = kubectlFor(plane.kubeconfig, cacheDir);

    const list = await kubectl(['get', 'ns', '-o', 'name']);
    assert.equal(list.code, 0, list.stderr);
    assert.ok(list.stdout.split('\n').includes('namespace/default'), list.stdout);

    const version = await kubectl(['version', '-o', 'json']);
    assert.equal(version.code, 0, version.stderr);
    assert.equal((JSON.parse(version.stdout) as { serverVersion: { gitVersion: string } }).serverVersion.gitVersion,
      process.env.K8S_REAL_VERSION ?? 'v1.32.13');

    const name = `smoke-${process.pid}`;
    const created = await kubectl(['create', 'ns', name]);
    assert.equal(created.code, 0, created.stderr);
    // kubectl delete waits until the object is gone, i.e. until the namespace controller finalized it.
    const deleted = await kubectl(['delete', 'ns', name, '--timeout=60s']);
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await kubectl(['get', 'ns', name]);
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /NotFound|not found/);
  } finally {
    await plane.stop();
    await rm(cacheDir, { recursive: true, force: true });
  }
});

test('real control plane: availability names the bin dir or what is missing', () => {
  const availability = realControlPlaneAvailable();
  if (availability.available) assert.ok(availability.binDir && availability.reason.includes(availability.binDir));
  else assert.match(availability.reason, /no .* in |not on PATH/);
});
