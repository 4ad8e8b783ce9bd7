/**
 * Fuzzing the request decoders (docs/design/apiserver.md, "Decoding"): random and hostile bodies in
 * every content type the server reads (JSON, YAML apply, protobuf, JSON/merge/strategic patches),
 * against typed built-ins and a custom resource. Whatever arrives, the answer is a 2xx or a 4xx with
 * a Status, never a 5xx, and the server keeps serving. Bounded by runs, a few seconds in all.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { controlPlaneForSuite } from '../../testing/control-plane-suite.js';

/** What each verb reads (other pairs are a plain 415, which says nothing about the decoders). */
const contentTypes = {
  POST: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
  PUT: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
  PATCH: ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'],
};
const request = fc.constantFrom('POST', 'PUT', 'PATCH').chain((method) => fc.tuple(fc.constant(method), fc.constantFrom(...contentTypes[method as keyof typeof contentTypes])));

/** Bodies that look like objects, with values of every JSON type where typed fields go. */
const objectish = fc.record({
  apiVersion: fc.constantFrom('v1', 'apps/v1', 'x', ''),
  kind: fc.constantFrom('ConfigMap', 'Pod', 'Deployment', 'Nope'),
  metadata: fc.oneof(fc.record({ name: fc.constantFrom('fz', 'FZ_bad', ''), labels: fc.jsonValue() }, { requiredKeys: [] }), fc.jsonValue()),
  spec: fc.jsonValue(),
  data: fc.jsonValue(),
}, { requiredKeys: [] });

const body = fc.oneof(
  objectish.map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
  fc.integer({ min: 1, max: 3000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.array(fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'), path: fc.constantFrom('/spec', '/data/a', '/metadata/labels/x', '', '/~', '/spec/replicas'), value: fc.jsonValue(), from: fc.constantFrom('/data', '/x') }, { requiredKeys: ['op'] })).map((ops) => JSON.stringify(ops)),
);

describe('request decoders under fuzzing', () => {
  const { api } = controlPlaneForSuite();
  before(async () => {
    await api.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'fz' }, data: { a: 'b' } });
    await api.request('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'fz' }, spec: { containers: [{ name: 'c', image: 'i' }] } });
    await api.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'fz' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
  });

  const targets = ['/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/pods', '/apis/apps/v1/namespaces/default/deployments'];

  test('no body in any content type gets a 5xx', async () => {
    let tried = 0;
    const seen = new Map<number, number>();
    await fc.assert(fc.asyncProperty(fc.constantFrom(...targets), request, body, async (collection, [method, contentType], payload) => {
      const path = method === 'POST' ? collection : `${collection}/fz${method === 'PATCH' && contentType.includes('apply') ? '?fieldManager=fuzz' : ''}`;
      const r = await api.request(method, path, payload, { 'content-type': contentType });
      tried++;
      seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
      assert.ok(r.status < 500, `${method} ${path} (${contentType}) answered ${r.status}: ${r.text.slice(0, 300)}\nbody: ${String(payload).slice(0, 300)}`);
      if (r.status >= 400) assert.equal(r.body?.kind, 'Status', r.text.slice(0, 200));
    }), { numRuns: 600 });
    console.log(`decoder fuzz: ${tried} requests, answers ${JSON.stringify(Object.fromEntries(seen))}`);
    assert.equal((await api.request('GET', '/api/v1/namespaces/default/configmaps/fz')).status, 200, 'still serving');
  });
});
