/**
 * Authorization through real kubectl 1.32 (docs/design/authorization.md): RBAC decisions and 403s,
 * `auth can-i` (with `--as` and `--list`), `auth whoami --as`, client certificates of other users,
 * `create token` and the token's life, and `--authorization-mode AlwaysAllow`.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';
import { issueClientCert } from '../../apiserver/auth/pki.js';

const reader = 'system:serviceaccount:team-a:reader';

describe('authorization through kubectl', () => {
  const { env } = controlPlaneForSuite();
  const k = (...args: string[]) => env.kubectl(args);
  const ok = async (...args: string[]) => {
    const r = await k(...args);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout.trim();
  };
  const denied = async (...args: string[]) => {
    const r = await k(...args);
    assert.notEqual(r.code, 0, r.stdout);
    return r.stderr.trim();
  };

  before(async () => {
    for (const ns of ['team-a', 'team-b']) await ok('create', 'namespace', ns);
    await ok('create', 'serviceaccount', 'reader', '-n', 'team-a');
    await ok('create', 'secret', 'generic', 'db', '-n', 'team-b', '--from-literal=password=x');
    for (const cm of ['one', 'two']) await ok('create', 'configmap', cm, '-n', 'team-a');
    await ok('create', 'role', 'cm-one', '--verb=get', '--resource=configmaps', '--resource-name=one', '-n', 'team-a');
    await ok('create', 'rolebinding', 'reader-cm-one', '--role=cm-one', `--serviceaccount=team-a:reader`, '-n', 'team-a');
  });

  test('auth can-i: the admin may do anything, nobody may not', async () => {
    assert.equal(await ok('auth', 'can-i', '*', '*'), 'yes');
    const nobody = await k('auth', 'can-i', '*', '*', '--as=nobody');
    assert.equal(nobody.stdout.trim(), 'no');
    assert.equal(nobody.code, 1);
  });

  test('a service account of team-a cannot read team-b\'s Secrets: kube\'s 403', async () => {
    assert.equal(await denied('get', 'secrets', '-n', 'team-b', `--as=${reader}`),
      `Error from server (Forbidden): secrets is forbidden: User "${reader}" cannot list resource "secrets" in API group "" in the namespace "team-b"`);
  });

  test('a Role granting get on one ConfigMap by resourceName', async () => {
    assert.match(await ok('get', 'configmap', 'one', '-n', 'team-a', `--as=${reader}`), /^NAME\s+DATA\s+AGE\none\s+0/);
    assert.equal(await denied('get', 'configmap', 'two', '-n', 'team-a', `--as=${reader}`),
      `Error from server (Forbidden): configmaps "two" is forbidden: User "${reader}" cannot get resource "configmaps" in API group "" in the namespace "team-a"`);
    assert.equal((await k('auth', 'can-i', 'list', 'configmaps', '-n', 'team-a', `--as=${reader}`)).stdout.trim(), 'no');
    assert.equal(await ok('auth', 'can-i', 'get', 'configmap/one', '-n', 'team-a', `--as=${reader}`), 'yes');
    const list = await ok('auth', 'can-i', '--list', '-n', 'team-a', `--as=${reader}`);
    assert.match(list, /^configmaps\s+\[\]\s+\[one\]\s+\[get\]$/m);
    assert.match(list, /^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
  });

  test('auth whoami --as, with groups and extras', async () => {
    const who = await ok('auth', 'whoami', '--as=jane', '--as-group=devs', '--as-uid=u-1', '-o', 'json');
    assert.deepEqual(JSON.parse(who).status.userInfo, { username: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'] });
    const sa = JSON.parse(await ok('auth', 'whoami', `--as=${reader}`, '-o', 'json')).status.userInfo;
    assert.deepEqual(sa.groups, ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated']);
    const twoGroups = JSON.parse(await ok('auth', 'whoami', '--as=jane', '--as-group=devs', '--as-group=ops', '-o', 'json')).status.userInfo;
    assert.deepEqual(twoGroups.groups, ['devs', 'ops', 'system:authenticated']);
  });

  test('a client certificate of another user is authorized as that user', async () => {
    const cert = await issueClientCert(env.plane.pki.ca, 'alice', ['devs']);
    const [crt, key] = [path.join(env.dir, 'alice.crt'), path.join(env.dir, 'alice.key')];
    await writeFile(crt, cert.certPem);
    await writeFile(key, cert.keyPem);
    const asAlice = ['--client-certificate', crt, '--client-key', key, '--token', ''];
    assert.equal((await k('auth', 'can-i', 'list', 'pods', '-n', 'team-b', ...asAlice)).stdout.trim(), 'no');
    await ok('create', 'rolebinding', 'devs-view', '--clusterrole=view', '--group=devs', '-n', 'team-b');
    assert.equal(await ok('auth', 'can-i', 'list', 'pods', '-n', 'team-b', ...asAlice), 'yes');
    assert.equal(await ok('auth', 'can-i', 'get', 'pods', '--subresource=log', '-n', 'team-b', ...asAlice), 'yes');
    assert.equal((await k('auth', 'can-i', 'get', 'secrets', '-n', 'team-b', ...asAlice)).stdout.trim(), 'no');
  });

  test('a namespace admin may bind roles it holds but not cluster-admin (escalation prevention)', async () => {
    await ok('create', 'rolebinding', 'carol-admin', '--clusterrole=admin', '--user=carol', '-n', 'team-b');
    await ok('create', 'rolebinding', 'dave-view', '--clusterrole=view', '--user=dave', '-n', 'team-b', '--as=carol');
    const escalation = await denied('create', 'rolebinding', 'mallory-root', '--clusterrole=cluster-admin', '--user=mallory', '-n', 'team-b', '--as=carol');
    assert.match(escalation, /^error: failed to create rolebinding: rolebindings\.rbac\.authorization\.k8s\.io "mallory-root" is forbidden: user "carol" \(groups=\["system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\], Resources:\["\*"\], Verbs:\["\*"\]\}/);
  });

  test('create token: the token authenticates as the service account until it is deleted', async () => {
    const token = await ok('create', 'token', 'reader', '-n', 'team-a');
    const [header, payload] = token.split('.').slice(0, 2).map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    assert.equal(header.alg, 'ES256');
    assert.deepEqual(payload.aud, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(payload.exp - payload.iat, 3600);
    assert.equal(payload['kubernetes.io'].serviceaccount.name, 'reader');
    const withToken = ['--token', token];
    assert.match(await ok('get', 'configmap', 'one', '-n', 'team-a', ...withToken), /^NAME/);
    assert.equal(await ok('auth', 'whoami', ...withToken, '-o', 'jsonpath={.status.userInfo.username}'), reader);
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } };
    const reviewed = await env.kubectl(['create', '-f', '-', '-o', 'jsonpath={.status.authenticated} {.status.user.username}'], { input: JSON.stringify(review) });
    assert.equal(reviewed.stdout.trim(), `true ${reader}`, reviewed.stderr);
    assert.equal(await denied('get', 'pods', '-n', 'team-a', ...withToken, '--as=bob'),
      `Error from server (Forbidden): users "bob" is forbidden: User "${reader}" cannot impersonate resource "users" in API group "" at the cluster scope`);
    assert.match(await denied('create', 'token', 'reader', '-n', 'team-a', '--duration=5m'), /may not specify a duration less than 10 minutes/);
    assert.match(await denied('create', 'token', 'missing', '-n', 'team-a'), /serviceaccounts "missing" not found/);
    await ok('delete', 'serviceaccount', 'reader', '-n', 'team-a');
    assert.match(await denied('get', 'configmap', 'one', '-n', 'team-a', ...withToken), /Unauthorized/);
  });
});

describe('--authorization-mode AlwaysAllow', () => {
  const { env } = controlPlaneForSuite({ authorizationMode: 'AlwaysAllow' });

  test('everyone authenticated may do anything', async () => {
    assert.equal((await env.kubectl(['auth', 'can-i', '*', '*', '--as=nobody'])).stdout.trim(), 'yes');
    assert.equal((await env.kubectl(['get', 'secrets', '-A', '--as=nobody'])).code, 0);
  });
});
