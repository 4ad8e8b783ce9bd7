import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  canonicalizeQuantity, compareQuantities, isValidQuantity, milliValue, parseQuantity, QUANTITY_FORMAT_ERROR,
  QUANTITY_NUMERIC_ERROR, QUANTITY_SUFFIX_ERROR, sumMilli, sumQuantities, sumUnits, unitValue, formatQuantity,
} from './quantity.js';

describe('canonicalizeQuantity (the form the API server stores)', () => {
  const cases: Array<[string | number, string]> = [
    ['100m', '100m'],
    ['1000m', '1'],
    ['1024Mi', '1Gi'],
    ['0.5', '500m'],
    ['1.5Gi', '1536Mi'],
    ['1e3', '1e3'],
    ['1e4', '10e3'],
    ['1000', '1k'],
    ['2000', '2k'],
    ['1500', '1500'],
    ['1024', '1024'],
    ['1Ki', '1Ki'],
    ['1000Ki', '1000Ki'],
    ['2048Ki', '2Mi'],
    ['8Gi', '8Gi'],
    ['123Mi', '123Mi'],
    ['0.5Ki', '512'],
    ['0.1Ki', '102400m'],
    ['1.1', '1100m'],
    ['1.5', '1500m'],
    ['12e6', '12e6'],
    ['129M', '129M'],
    ['128974848', '128974848'],
    ['1E', '1E'],
    ['-1Gi', '-1Gi'],
    ['-1000m', '-1'],
    ['0', '0'],
    ['-0', '0'],
    ['00', '0'],
    ['0Ki', '0'],
    ['k', '0'],
    ['0.0001', '100u'],
    ['1n', '1n'],
    ['0.1n', '1n'], // rounded up to the smallest unit
    ['0.0000000001', '1n'],
    ['100000000000000000000', '9223372036854775807'], // capped at int64 max
    ['+1', '+1'], // kept verbatim by upstream's fast path
    ['0100m', '0100m'],
    [' 1Gi ', '1Gi'],
    [5, '5'],
    [0.25, '250m'],
    [1024, '1024'],
  ];
  for (const [input, want] of cases) {
    test(`${JSON.stringify(input)} -> ${want}`, () => assert.equal(canonicalizeQuantity(input), want));
  }
});

describe('invalid quantities carry upstream messages', () => {
  const cases: Array<[string, string]> = [
    ['', QUANTITY_FORMAT_ERROR],
    ['abc', QUANTITY_FORMAT_ERROR],
    ['1.2.3', QUANTITY_FORMAT_ERROR],
    ['5Q', QUANTITY_FORMAT_ERROR],
    ['1 Gi', QUANTITY_FORMAT_ERROR],
    ['1Gi1', QUANTITY_SUFFIX_ERROR],
    ['1kk', QUANTITY_SUFFIX_ERROR],
    ['1K', QUANTITY_SUFFIX_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['--1', QUANTITY_SUFFIX_ERROR],
    ['e-10', QUANTITY_NUMERIC_ERROR],
  ];
  for (const [input, message] of cases) {
    test(JSON.stringify(input), () => {
      assert.throws(() => parseQuantity(input), { message });
      assert.equal(isValidQuantity(input), false);
    });
  }
  test('the format error text is exact', () => {
    assert.equal(QUANTITY_FORMAT_ERROR, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  });
});

describe('values and comparisons', () => {
  test('compareQuantities', () => {
    assert.equal(compareQuantities('1', '1000m'), 0);
    assert.equal(compareQuantities('1Gi', '1G'), 1);
    assert.equal(compareQuantities('-1', '0'), -1);
    assert.equal(compareQuantities('1Ki', 1024), 0);
  });

  const milli: Array<[string, number]> = [['100m', 100], ['0.1m', 1], ['1', 1000], ['1.5', 1500], ['-0.1m', -1], ['2', 2000]];
  for (const [q, want] of milli) test(`milliValue(${q}) = ${want}`, () => assert.equal(milliValue(q), want));

  const units: Array<[string, number]> = [['1Gi', 1073741824], ['1.5', 2], ['100m', 1], ['1M', 1000000], ['0', 0]];
  for (const [q, want] of units) test(`unitValue(${q}) = ${want}`, () => assert.equal(unitValue(q), want));

  test('scheduler sums: cpu in millicores, memory in bytes', () => {
    assert.equal(sumMilli(['100m', '0.5', undefined, 1]), 1600);
    assert.equal(sumUnits(['1Gi', '512Mi', undefined]), 1610612736);
    assert.equal(formatQuantity(sumQuantities(['1Gi', '512Mi'])), '1536Mi');
    assert.equal(formatQuantity(sumQuantities(['100m', '900m'])), '1');
    assert.equal(formatQuantity(sumQuantities([])), '0');
  });
});

describe('properties', () => {
  const suffixes = ['', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3', 'e-3', 'u', 'n'];
  const quantity = fc.tuple(fc.integer({ min: 0, max: 10 ** 6 }), fc.integer({ min: 0, max: 999 }), fc.constantFrom(...suffixes))
    .map(([whole, frac, suffix]) => `${whole}${frac ? `.${frac}` : ''}${suffix}`);

  test('canonical text parses back to the same value and is a fixed point', () => {
    fc.assert(fc.property(quantity, (q) => {
      const canonical = canonicalizeQuantity(q);
      assert.equal(parseQuantity(canonical).nanos, parseQuantity(q).nanos);
      assert.equal(canonicalizeQuantity(canonical), canonical);
    }), { numRuns: 500 });
  });
});
