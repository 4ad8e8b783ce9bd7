import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { childSchema, listMapKeys, listTypeAt, schemaAt, type PatchSchema } from './patch-schema.js';

const item: PatchSchema = { fields: { tags: { list: { kind: 'set' } } } };
const schema: PatchSchema = {
  fields: {
    spec: { fields: { things: { list: { kind: 'map', key: 'id', keys: ['id', 'zone'] }, items: item } } },
  },
};

describe('patch schema lookup', () => {
  const cases: Array<[string[], unknown]> = [
    [['spec', 'things'], { kind: 'map', key: 'id', keys: ['id', 'zone'] }],
    [['spec', 'things', 'tags'], { kind: 'set' }], // list items are entered implicitly
    [['spec', 'other'], { kind: 'atomic' }],
    [['nope', 'deeper'], { kind: 'atomic' }],
  ];
  for (const [path, want] of cases) {
    test(path.join('.'), () => assert.deepEqual(listTypeAt(schema, path), want));
  }

  test('childSchema and schemaAt', () => {
    assert.equal(childSchema(undefined, 'x'), undefined);
    assert.equal(schemaAt(schema, ['spec', 'things', 'tags']), item.fields!.tags);
    assert.equal(schemaAt(schema, []), schema);
  });

  test('listMapKeys prefers SSA keys', () => {
    assert.deepEqual(listMapKeys({ kind: 'map', key: 'id', keys: ['id', 'zone'] }), ['id', 'zone']);
    assert.deepEqual(listMapKeys({ kind: 'map', key: 'name' }), ['name']);
    assert.deepEqual(listMapKeys({ kind: 'set' }), []);
  });
});
