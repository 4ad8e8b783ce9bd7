/** Lists, watches and retryOnConflict through both clients against a real embedded control plane. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMaps, Namespaces } from '../api/resource-type.js';
import { StatusError } from '../machinery/errors.js';
import { startTestControlPlane, type TestControlPlane } from '../testing/control-plane.js';
import type { Client } from './client.js';
import { retryOnConflict } from './retry.js';
import { configMap, factories, record, rejectsWith } from './client-testkit.test.js';

for (const [name, makeClient] of factories) {
  describe(`${name} client: lists and watches`, () => {
    let env: TestControlPlane;
    let client: Client;

    before(async () => {
      env = await startTestControlPlane();
      client = makeClient(env);
      for (const ns of ['a', 'b']) await client.create(Namespaces, { metadata: { name: ns } });
      for (let i = 0; i < 5; i++) await client.create(ConfigMaps, configMap('a', `cm${i}`, {}, { tier: i % 2 ? 'odd' : 'even' }));
      await client.create(ConfigMaps, configMap('b', 'other', {}, { tier: 'odd' }));
    });
    after(() => env.stop());

    test('label and field selectors, namespace scoping', async () => {
      const odd = await client.list(ConfigMaps, { namespace: 'a', labelSelector: 'tier=odd' });
      assert.deepEqual(odd.items.map((i) => i.metadata.name), ['cm1', 'cm3']);
      const everywhere = await client.list(ConfigMaps, { labelSelector: 'tier in (odd)' });
      assert.deepEqual(everywhere.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`), ['a/cm1', 'a/cm3', 'b/other']);
      const byName = await client.list(ConfigMaps, { fieldSelector: 'metadata.name=cm2' });
      assert.deepEqual(byName.items.map((i) => i.metadata.name), ['cm2']);
      await rejectsWith(client.list(ConfigMaps, { labelSelector: 'tier in (' }), 400, 'BadRequest');
    });

    test('pagination with limit and continue', async () => {
      const names: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await client.list(ConfigMaps, { namespace: 'a', labelSelector: 'tier', limit: 2, continue: token });
        names.push(...page.items.map((i) => i.metadata.name!));
        token = page.metadata.continue;
        pages++;
      } while (token);
      assert.equal(pages, 3);
      assert.deepEqual(names, ['cm0', 'cm1', 'cm2', 'cm3', 'cm4']);
    });

    test('watch delivers ADDED, MODIFIED, DELETED in order; stop() is silent', async () => {
      const rv = (await client.list(ConfigMaps, { namespace: 'b' })).metadata.resourceVersion;
      const w = record(client, ConfigMaps, { namespace: 'b', resourceVersion: rv, labelSelector: 'watched=yes' });
      const cm = await client.create(ConfigMaps, configMap('b', 'w', { v: '1' }, { watched: 'yes' }));
      await client.update(ConfigMaps, { ...cm, data: { v: '2' } });
      await client.delete(ConfigMaps, 'b', 'w');
      await w.until(3);
      assert.deepEqual(w.events.map((e) => `${e.type}:${e.object.metadata.name}:${(e.object.data as { v: string }).v}`), ['ADDED:w:1', 'MODIFIED:w:2', 'DELETED:w:2']);
      w.handle.stop();
      await client.create(ConfigMaps, configMap('b', 'w2', {}, { watched: 'yes' }));
      await new Promise((resolve) => setTimeout(resolve, 50)); // room for a wrongly delivered event
      assert.equal(w.events.length, 3);
      assert.deepEqual(w.closes, []);
    });

    test('watch without resourceVersion starts with the current objects', async () => {
      const w = record(client, ConfigMaps, { namespace: 'a', labelSelector: 'tier=even' });
      await w.until(3);
      assert.deepEqual(w.events.map((e) => `${e.type}:${e.object.metadata.name}`).sort(), ['ADDED:cm0', 'ADDED:cm2', 'ADDED:cm4']);
      w.handle.stop();
    });

    test('a watch refused by the server closes with its StatusError', async () => {
      const w = record(client, ConfigMaps, { namespace: 'a', labelSelector: '!!bad' });
      const err = await w.closed();
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 400);
    });

    test('retryOnConflict retries a stale write and not other errors', async () => {
      const stale = await client.create(ConfigMaps, configMap('a', 'counter', { n: '0' }));
      await client.update(ConfigMaps, { ...stale, data: { n: '1' } }); // someone else wrote first
      let attempts = 0;
      const result = await retryOnConflict(async () => {
        const current = attempts++ === 0 ? stale : await client.get(ConfigMaps, 'a', 'counter');
        const n = Number((current.data as { n: string }).n);
        return client.update(ConfigMaps, { ...current, data: { n: String(n + 1) } });
      });
      assert.equal(attempts, 2);
      assert.deepEqual(result.data, { n: '2' });
      let missing = 0;
      await rejectsWith(retryOnConflict(() => { missing++; return client.get(ConfigMaps, 'a', 'none'); }), 404, 'NotFound');
      assert.equal(missing, 1);
    });
  });

  describe(`${name} client: watch from a compacted resourceVersion`, () => {
    let env: TestControlPlane;
    after(() => env?.stop());

    test('closes with 410 Expired', async () => {
      env = await startTestControlPlane({ store: { historyEvents: 2 } });
      const client = makeClient(env);
      const first = await client.create(ConfigMaps, configMap('default', 'old'));
      for (let i = 0; i < 4; i++) await client.create(ConfigMaps, configMap('default', `new${i}`));
      const w = record(client, ConfigMaps, { namespace: 'default', resourceVersion: first.metadata.resourceVersion });
      const err = await w.closed();
      assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
      assert.equal(err.code, 410);
      assert.equal(err.reason, 'Expired');
      assert.deepEqual(w.events, []);
    });
  });
}
