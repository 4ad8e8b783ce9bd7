import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { anonymousUser, createAuthenticator, isAnonymousAllowed } from './authn.js';
import { generateCA, issueClientCert } from './pki.js';

const ca = await generateCA('authn-ca');
const otherCa = await generateCA('other-ca');
const janeDer = new X509Certificate((await issueClientCert(ca, 'jane', ['devs'])).certPem).raw;
const foreignDer = new X509Certificate((await issueClientCert(otherCa, 'eve', ['system:masters'])).certPem).raw;
const authn = createAuthenticator({
  caPem: ca.certPem,
  tokens: {
    'admin-token': { username: 'admin', uid: 'admin-uid', groups: ['system:masters'] },
    'bot-token': { username: 'bot', groups: ['system:authenticated'] },
  },
});
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('bearer tokens', () => {
  test('a known token yields its user plus system:authenticated', async () => {
    assert.deepEqual((await authn.authenticate(bearer('admin-token'))), {
      username: 'admin',
      uid: 'admin-uid',
      groups: ['system:masters', 'system:authenticated'],
    });
    assert.deepEqual((await authn.authenticate(bearer('bot-token')))?.groups, ['system:authenticated']);
    assert.equal((await authn.authenticate({ headers: { authorization: 'bearer   admin-token ' } }))?.username, 'admin');
  });

  test('a wrong token is not authenticated and is a rejection, not anonymous', async () => {
    assert.equal((await authn.authenticate(bearer('wrong'))), undefined);
    assert.deepEqual((await authn.check(bearer('wrong'))), { status: 'rejected', reason: 'invalid bearer token' });
  });

  test('no credentials, other schemes and empty tokens are anonymous', async () => {
    assert.deepEqual((await authn.check({ headers: {} })), { status: 'anonymous' });
    assert.deepEqual((await authn.check({ headers: { authorization: 'Basic YWRtaW46eA==' } })), { status: 'anonymous' });
    assert.deepEqual((await authn.check({ headers: { authorization: 'Bearer ' } })), { status: 'anonymous' });
    assert.deepEqual(anonymousUser, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  });

  test('the token table is validated', async () => {
    assert.throws(() => createAuthenticator({ caPem: ca.certPem, tokens: { 'a b': { username: 'x', groups: [] } } }));
    assert.throws(() => createAuthenticator({ caPem: ca.certPem, tokens: { t: { username: '', groups: [] } } }));
    assert.throws(() => createAuthenticator({ caPem: 'not a pem', tokens: {} }));
  });
});

describe('client certificates', () => {
  test('a certificate from the cluster CA yields CN as user and O as groups', async () => {
    assert.deepEqual((await authn.authenticate({ headers: {}, peerCertificateDer: janeDer })), {
      username: 'jane',
      groups: ['devs', 'system:authenticated'],
    });
  });

  test('a certificate from another CA is rejected', async () => {
    assert.equal((await authn.authenticate({ headers: {}, peerCertificateDer: foreignDer })), undefined);
    assert.equal((await authn.check({ headers: {}, peerCertificateDer: foreignDer })).status, 'rejected');
  });

  test('like kube-apiserver, the certificate wins over a token, and either valid one suffices', async () => {
    assert.equal((await authn.authenticate({ ...bearer('admin-token'), peerCertificateDer: janeDer }))?.username, 'jane');
    assert.equal((await authn.authenticate({ ...bearer('wrong'), peerCertificateDer: janeDer }))?.username, 'jane');
    assert.equal((await authn.authenticate({ ...bearer('admin-token'), peerCertificateDer: foreignDer }))?.username, 'admin');
  });
});

describe('isAnonymousAllowed', () => {
  const allowed = [
    '/version', '/version/', '/healthz', '/healthz/etcd', '/livez', '/readyz/ping', '/readyz?verbose',
    '/api', '/api/', '/apis', '/api/v1', '/apis/apps', '/apis/apps/v1', '/apis/apps.kruise.io/v1alpha1',
    '/openapi/v2', '/openapi/v3', '/openapi/v3/apis/apps/v1', '/.well-known/openid-configuration',
    '/openid/v1/jwks',
  ];
  const denied = [
    '/', '/api/v1/pods', '/api/v1/namespaces/default/secrets', '/apis/apps/v1/deployments',
    '/apis/apps/v1/namespaces/x/deployments/y', '/api/v2', '/openapi', '/metrics', '/logs',
    '/apis/apps/../../api/v1/secrets', '/api//v1', '/.well-known/other', 'version',
  ];
  for (const path of allowed) test(`allows GET ${path}`, () => assert.equal(isAnonymousAllowed(path), true));
  for (const path of denied) test(`denies GET ${path}`, () => assert.equal(isAnonymousAllowed(path), false));
  test('allows HEAD but no writes', async () => {
    assert.equal(isAnonymousAllowed('/version', 'HEAD'), true);
    assert.equal(isAnonymousAllowed('/apis/apps/v1', 'POST'), false);
    assert.equal(isAnonymousAllowed('/healthz', 'DELETE'), false);
  });
});
