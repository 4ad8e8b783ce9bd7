import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from './errors.js';
import {
  labelSelectorToString, parseLabelSelector, selectorFromLabelSelector, selectorFromSet,
} from './labels.js';

const NAME_PART_MSG = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector matching (L4)', () => {
  const L = { app: 'web', tier: 'fe', n: '5' };
  const cases: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['', L, true],
    ['', undefined, true],
    ['app=web', L, true],
    ['app==web', L, true],
    ['app=db', L, false],
    ['app!=db', L, true],
    ['app!=web', L, false],
    ['missing!=x', L, true], // != matches objects without the key
    ['missing=x', L, false],
    ['app in (web,db)', L, true],
    ['app in (db)', L, false],
    ['app notin (db)', L, true],
    ['app notin (web)', L, false],
    ['missing notin (a)', L, true], // notin matches objects without the key
    ['missing in (a)', L, false],
    ['app', L, true],
    ['missing', L, false],
    ['!missing', L, true],
    ['!app', L, false],
    ['app=web,tier=fe', L, true], // comma = AND
    ['app=web,tier=be', L, false],
    ['  app = web ,  tier  in ( fe , be ) ', L, true],
    ['n>3', L, true],
    ['n>5', L, false],
    ['n<6', L, true],
    ['app>3', L, false], // non-integer label value never matches gt/lt
    ['missing<3', L, false],
    ['app=', { app: '' }, true],
    ['app=', L, false],
    ['app in ()', { app: '' }, true],
    ['app in (,x)', { app: '' }, true],
    ['example.com/role=db', { 'example.com/role': 'db' }, true],
    ['in=x', { in: 'x' }, true], // keywords are identifiers in key position
    ['a in (in,notin)', { a: 'notin' }, true],
    ['app', undefined, false],
    ['!app', undefined, true],
  ];
  for (const [sel, labels, want] of cases) {
    test(`${JSON.stringify(sel)} on ${JSON.stringify(labels)} -> ${want}`, () => {
      assert.equal(parseLabelSelector(sel).matches(labels), want);
    });
  }
});

describe('parseLabelSelector canonical string', () => {
  const cases: Array<[string, string]> = [
    ['', ''],
    ['tier=fe,app=web', 'app=web,tier=fe'],
    ['a==b', 'a==b'],
    ['x in (c,a,b,a)', 'x in (a,b,c)'],
    ['x notin (b,a)', 'x notin (a,b)'],
    ['!b,a', 'a,!b'],
    ['a>1,b<2', 'a>1,b<2'],
    ['a!=', 'a!='],
  ];
  for (const [input, want] of cases) {
    test(`${JSON.stringify(input)} -> ${JSON.stringify(want)}`, () => {
      const sel = parseLabelSelector(input);
      assert.equal(sel.toString(), want);
      assert.equal(sel.empty, input === '');
      assert.equal(parseLabelSelector(sel.toString()).toString(), want, 'round trip');
    });
  }
});

describe('parseLabelSelector errors are 400 with upstream text', () => {
  const cases: Array<[string, string]> = [
    ['a=b,', "found '', expected: identifier after ','"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a,b c', "unable to parse requirement: found 'c', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a===b', "unable to parse requirement: found '=', expected: identifier"],
    ['!a=b', "found '=', expected: ',' or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a gt 3', "unable to parse requirement: found 'gt', expected: in, notin, =, ==, !=, gt, lt"],
    ['a>b', "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer"],
    ['a@b=c', `unable to parse requirement: <nil>: Invalid value: "a@b": ${NAME_PART_MSG}`],
    ['a=b@c', `unable to parse requirement: values[0][a]: Invalid value: "b@c": ${VALUE_MSG}`],
    [`a=${'x'.repeat(64)}`, `unable to parse requirement: values[0][a]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_MSG}`],
    ['Example.com/a=b', "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => {
      assert.throws(() => parseLabelSelector(input), (e: unknown) => {
        assert.ok(e instanceof StatusError);
        assert.equal(e.code, 400);
        assert.equal(e.reason, 'BadRequest');
        assert.equal(e.message, message);
        return true;
      });
    });
  }
});

describe('selectorFromLabelSelector (LabelSelectorAsSelector)', () => {
  test('null and undefined select nothing; {} selects everything', () => {
    assert.equal(selectorFromLabelSelector(null).matches({ a: 'b' }), false);
    assert.equal(selectorFromLabelSelector(undefined).matches({}), false);
    assert.equal(selectorFromLabelSelector(null).empty, false);
    assert.equal(selectorFromLabelSelector({}).matches({ a: 'b' }), true);
    assert.equal(selectorFromLabelSelector({ matchLabels: {}, matchExpressions: [] }).empty, true);
  });

  test('matchLabels and matchExpressions are ANDed and printed canonically', () => {
    const sel = selectorFromLabelSelector({
      matchLabels: { z: '1', app: 'web' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'tier', operator: 'NotIn', values: ['db'] },
        { key: 'owner', operator: 'Exists' },
      ],
    });
    assert.equal(sel.toString(), 'app=web,!canary,env in (dev,prod),owner,tier notin (db),z=1');
    assert.equal(sel.matches({ app: 'web', z: '1', env: 'dev', owner: 'me' }), true);
    assert.equal(sel.matches({ app: 'web', z: '1', env: 'dev', owner: 'me', canary: 'y' }), false);
    assert.equal(sel.matches({ app: 'web', z: '1', env: 'qa', owner: 'me' }), false);
    assert.equal(parseLabelSelector(sel.toString()).toString(), sel.toString());
  });

  test('labelSelectorToString', () => {
    assert.equal(labelSelectorToString({ matchLabels: { b: '2', a: '1' } }), 'a=1,b=2');
    assert.equal(labelSelectorToString({}), '');
  });

  const bad: Array<[Parameters<typeof selectorFromLabelSelector>[0], string]> = [
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist'],
    [{ matchExpressions: [{ key: 'a', operator: 'Foo' as 'In', values: ['x'] }] }, '"Foo" is not a valid label selector operator'],
    [{ matchLabels: { 'a b': 'c' } }, `key: Invalid value: "a b": ${NAME_PART_MSG}`],
  ];
  for (const [sel, message] of bad) {
    test(`invalid: ${message.slice(0, 40)}`, () => {
      assert.throws(() => selectorFromLabelSelector(sel), (e: unknown) => e instanceof StatusError && e.code === 400 && e.message === message);
    });
  }

  test('selectorFromSet', () => {
    const sel = selectorFromSet({ b: '2', a: '1' });
    assert.equal(sel.toString(), 'a=1,b=2');
    assert.equal(sel.matches({ a: '1', b: '2', c: '3' }), true);
    assert.equal(sel.matches({ a: '1' }), false);
    assert.equal(selectorFromSet(undefined).empty, true);
  });
});
