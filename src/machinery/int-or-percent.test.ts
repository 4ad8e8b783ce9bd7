import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scaledIntOrPercent, scaledValue } from './int-or-percent.js';

describe('int or percent', () => {
  test('ints as they are, percents of the total rounded up or down', () => {
    assert.equal(scaledValue(3, 10, true), 3);
    assert.equal(scaledValue(undefined, 10, true), 0);
    assert.equal(scaledValue('25%', 10, true), 3);
    assert.equal(scaledValue('25%', 10, false), 2);
    assert.equal(scaledValue('99%', 100, false), 99);
    assert.equal(scaledValue('33.33%', 3, true), 1);
    assert.equal(scaledValue('33.33%', 300, false), 99);
  });

  test('errors read as upstream', () => {
    assert.equal(scaledIntOrPercent('5', 10, true).error, 'invalid value for IntOrString: invalid type: string is not a percentage');
    assert.equal(scaledIntOrPercent('x%', 10, true).error, 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax');
    assert.equal(scaledIntOrPercent(true, 10, true).error, 'invalid value for IntOrString: invalid type: neither int nor percentage');
    assert.throws(() => scaledValue('abc', 3, true), /string is not a percentage/);
  });
});
