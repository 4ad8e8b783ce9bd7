/**
 * The string interner: equal values decoded apart end up as one copy, objects keep their meaning,
 * the table stays bounded, and frozen objects are left alone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StringInterner } from './intern.js';

interface PodLike { spec: { containers: { image: string }[] } }

/** Two decodes of one pod-like document: equal values, distinct string copies. */
const decode = (): PodLike => JSON.parse(JSON.stringify({
  metadata: { name: 'web-1', labels: { app: 'web' } },
  spec: { containers: [{ name: 'web', image: 'bench.local/web:v1' }], tolerations: [{ key: 'node.kubernetes.io/not-ready' }] },
  status: { conditions: [{ type: 'Ready', status: 'True' }], podIP: '10.0.0.1', ready: true, restarts: 0 },
})) as PodLike;

describe('StringInterner', () => {
  test('interned objects are unchanged in value and share repeated strings', () => {
    const interner = new StringInterner();
    const [a, b] = [decode(), decode()];
    const expected = decode();
    interner.internValues(a);
    interner.internValues(b);
    assert.deepEqual(a, expected);
    assert.deepEqual(b, expected);
    const image = (o: PodLike) => o.spec.containers[0]!.image;
    // %IsSameString is not observable from JS; the table holding one entry per distinct value is.
    assert.equal(interner.intern(image(b)), image(a));
    assert.equal(interner.size(), new Set(['web-1', 'web', 'bench.local/web:v1', 'node.kubernetes.io/not-ready', 'Ready', 'True', '10.0.0.1']).size);
  });

  test('the table starts over when full and skips long values', () => {
    const interner = new StringInterner(3, 8);
    for (const s of ['a', 'b', 'c']) interner.intern(s);
    assert.equal(interner.size(), 3);
    interner.intern('d');
    assert.equal(interner.size(), 1);
    interner.intern('a much longer value');
    assert.equal(interner.size(), 1);
  });

  test('frozen objects are left as they are', () => {
    const interner = new StringInterner();
    const frozen = Object.freeze({ kind: 'Pod', spec: Object.freeze({ nodeName: 'node-1' }) });
    assert.doesNotThrow(() => interner.internValues(frozen));
    assert.equal(interner.size(), 0);
  });
});
