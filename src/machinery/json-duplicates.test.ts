import { test } from 'node:test';
import assert from 'node:assert/strict';
import { duplicateFields } from './json-duplicates.js';

test('duplicate keys are reported by path, in document order; arrays and escapes are walked', () => {
  assert.deepEqual(duplicateFields('{"metadata":{"name":"x","name":"x"},"data":{"k":"1","k":"2"}}'), ['metadata.name', 'data.k']);
  assert.deepEqual(duplicateFields('{"spec":{"containers":[{"name":"a"},{"name":"b","image":"i","name":"c"}]}}'), ['spec.containers[1].name']);
  assert.deepEqual(duplicateFields(' { "a\\"b" : [1, 2.5e3, true, null, "x,}"] , "c" : { } , "a\\"b": {} } '), ['a"b']);
  assert.deepEqual(duplicateFields('{"a":[],"b":[[1],[2]],"c":"}"}'), []);
});

test('malformed text ends the scan instead of looping', () => {
  for (const bad of ['{"a":', '{"a":"x', '{"a":1,"a"', '[1,2', '{"metadata":)', '{"a":1,"a":2', '"', '{', ']']) {
    assert.ok(Array.isArray(duplicateFields(bad)), bad);
  }
  assert.deepEqual(duplicateFields('{"a":1,"a":2'), ['a']);
});


test('paths of duplicates deep in arrays of arrays and after escaped keys name each step', () => {
  assert.deepEqual(duplicateFields('{"x\\\\":1,"l":[[{"k":1}],[{"k":1,"k":2}]],"x\\\\":2}'), ['l[1][0].k', 'x\\']);
  assert.deepEqual(duplicateFields('{"m":{"a.b":{"c":1,"c":2}}}'), ['m.a.b.c']);
  assert.deepEqual(duplicateFields('[{"a":1},{"a":1,"a":1}]'), ['[1].a']);
  assert.deepEqual(duplicateFields('{"a":-1.5E-3,"b":"\\u0041","a":false}'), ['a']);
});

test('an object of many keys still finds its duplicates', () => {
  const keys = Array.from({ length: 500 }, (_, i) => `"k${i}":${i}`);
  assert.deepEqual(duplicateFields(`{"data":{${keys.join(',')},"k3":0,"k499":1}}`), ['data.k3', 'data.k499']);
  assert.deepEqual(duplicateFields(`{${keys.slice(0, 17).join(',')},"k16":2}`), ['k16']);
});
