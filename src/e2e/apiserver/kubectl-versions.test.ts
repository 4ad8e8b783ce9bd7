/** Older and newer kubectl minors work too: 1.27/1.28 need protobuf OpenAPI v2, 1.33 the v3 documents. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';

const manifest = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name} }
spec:
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec: { containers: [{ name: a, image: nginx }] }
`;

describe('kubectl minor versions', () => {
  const { env } = controlPlaneForSuite();

  for (const minor of [27, 28, 30, 33]) {
    test(`kubectl 1.${minor}: apply with validation, get, create namespace, explain`, async () => {
      const k = (args: string[], input?: string) => env.kubectl(args, { input, minor });
      const applied = await k(['apply', '-f', '-'], manifest(`web${minor}`));
      assert.equal(applied.code, 0, applied.stderr);
      const bad = await k(['apply', '-f', '-'], manifest(`bad${minor}`).replace('image: nginx', 'image: nginx, bogus: 1'));
      assert.notEqual(bad.code, 0, 'unknown fields are rejected by default validation');
      assert.match(bad.stderr, /bogus/);
      const got = await k(['get', 'deploy', `web${minor}`]);
      assert.match(got.stdout, new RegExp(`^web${minor}\\s+0/1`, 'm'));
      const ns = await k(['create', 'namespace', `ns${minor}`]);
      assert.equal(ns.code, 0, ns.stderr);
      const explain = await k(['explain', 'deployments.spec.replicas']);
      assert.equal(explain.code, 0, explain.stderr);
      assert.match(explain.stdout, /replicas/);
    });
  }
});
