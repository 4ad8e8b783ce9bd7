import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonText, rememberJsonText } from './json-text.js';

describe('jsonText', () => {
  const decoded = (text: string) => {
    const obj = JSON.parse(text) as object;
    rememberJsonText(obj, text);
    return obj;
  };

  test('answers the remembered text of an object, and JSON.stringify of anything else', () => {
    const pod = decoded('{"kind":"Pod","metadata":{"name":"a"}}');
    assert.equal(jsonText(pod), '{"kind":"Pod","metadata":{"name":"a"}}');
    assert.equal(jsonText({ ...pod }), JSON.stringify(pod));
    assert.equal(jsonText('x'), '"x"');
    assert.equal(jsonText(null), 'null');
  });

  test('a list splices its remembered items into its own fields, in their order', () => {
    const pod = decoded('{"kind":"Pod","metadata":{"name":"a"}}');
    const lists = [
      { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '5' }, items: [pod, { y: [1, -0], u: undefined }, pod, undefined] },
      { items: [pod], after: { items: [], note: '\u0001items\u0001' } },
      { before: { note: '\u0001items\u0001' }, items: [pod] },
    ];
    for (const list of lists) assert.equal(jsonText(list), JSON.stringify(list));
  });
});
