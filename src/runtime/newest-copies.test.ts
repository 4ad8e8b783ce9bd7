import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../api/meta.js';
import { NewestCopies } from './newest-copies.js';

const obj = (rv: string, uid = 'u1'): KObject => ({ apiVersion: 'v1', kind: 'X', metadata: { namespace: 'ns', name: 'a', uid, resourceVersion: rv } });

test('the written copy wins until the cache shows that version or a newer one', () => {
  const copies = new NewestCopies<KObject>();
  const written = obj('12');
  copies.note(written);
  assert.equal(copies.newest(obj('10')), written, 'cache behind');
  assert.equal(copies.newest(written), written, 'asking with the written copy itself keeps it');
  assert.equal(copies.newest(obj('11')), written, 'still kept');
  const caughtUp = obj('12');
  assert.equal(copies.newest(caughtUp), caughtUp, 'cache caught up');
  const stale = obj('10');
  assert.equal(copies.newest(stale), stale, 'dropped once the cache caught up');
});

test('a replaced object, an opaque resourceVersion or a forgotten key falls back to the cache', () => {
  const copies = new NewestCopies<KObject>();
  copies.note(obj('12'));
  assert.equal(copies.newest(obj('5', 'u2')).metadata.uid, 'u2');
  copies.note(obj('abc'));
  assert.equal(copies.newest(obj('5')).metadata.resourceVersion, '5');
  copies.note(obj('12'));
  copies.forget('ns', 'a');
  assert.equal(copies.newest(obj('5')).metadata.resourceVersion, '5');
});
