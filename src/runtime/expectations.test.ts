import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock } from '../machinery/clock.js';
import { ResourceVersionExpectations, ScaleExpectations } from './expectations.js';

describe('scale expectations', () => {
  test('satisfied only after every expected create and delete is observed', () => {
    const exp = new ScaleExpectations({ clock: new FakeClock() });
    assert.equal(exp.satisfied('ns/cs'), true, 'nothing expected');
    exp.expect('ns/cs', 'create', 'pod-a');
    exp.expect('ns/cs', 'create', 'pod-b');
    exp.expect('ns/cs', 'delete', 'pod-old');
    assert.equal(exp.satisfied('ns/cs'), false);
    exp.observe('ns/cs', 'create', 'pod-a');
    exp.observe('ns/cs', 'delete', 'pod-b'); // the wrong action does not count
    exp.observe('ns/other', 'create', 'pod-b'); // nor another controller's key
    assert.equal(exp.satisfied('ns/cs'), false);
    assert.deepEqual(exp.pendingFor('ns/cs'), { create: ['pod-b'], delete: ['pod-old'] });
    exp.observe('ns/cs', 'create', 'pod-b');
    exp.observe('ns/cs', 'delete', 'pod-old');
    assert.equal(exp.satisfied('ns/cs'), true);
    assert.equal(exp.leaks(), 0);
  });

  test('time out after 5 minutes by default, counted as a leak', () => {
    const clock = new FakeClock();
    const leaked: string[] = [];
    const exp = new ScaleExpectations({ clock, onLeak: (k) => leaked.push(k) });
    exp.expect('ns/cs', 'create', 'pod-a');
    clock.advance(60_000);
    exp.expect('ns/cs', 'create', 'pod-b'); // the clock runs from the oldest pending expectation
    assert.equal(exp.waitMs('ns/cs'), 4 * 60_000);
    clock.advance(4 * 60_000 - 1);
    assert.equal(exp.satisfied('ns/cs'), false);
    clock.advance(1);
    assert.equal(exp.satisfied('ns/cs'), true);
    assert.equal(exp.waitMs('ns/cs'), 0);
    assert.deepEqual(leaked, ['ns/cs']);
    assert.equal(exp.leaks(), 1);
    assert.equal(exp.satisfied('ns/cs'), true, 'a leak is counted once');
    assert.equal(exp.leaks(), 1);
  });

  test('two stores never share state', () => {
    const a = new ScaleExpectations({ clock: new FakeClock() });
    const b = new ScaleExpectations({ clock: new FakeClock() });
    a.expect('k', 'create', 'x');
    assert.equal(b.satisfied('k'), true);
    assert.throws(() => new ScaleExpectations({ timeoutMs: 0 }));
  });
});

describe('resourceVersion expectations', () => {
  test('a cached copy older than our own write is not satisfied', () => {
    const clock = new FakeClock();
    const exp = new ResourceVersionExpectations({ clock, timeoutMs: 1000 });
    exp.expectUpdated('ns/cs', { metadata: { resourceVersion: '120' } });
    assert.equal(exp.isUpdatedSatisfied('ns/cs', { metadata: { resourceVersion: '99' } }), false, 'numeric, not string, comparison');
    assert.equal(exp.isUpdatedSatisfied('ns/cs', undefined), false);
    assert.equal(exp.isUpdatedSatisfied('ns/cs', { metadata: { resourceVersion: '121' } }), true);
    assert.equal(exp.isUpdatedSatisfied('ns/cs', { metadata: { resourceVersion: '1' } }), true, 'cleared once seen');
  });

  test('integers of the same length and past 2^53 compare as numbers; other texts only by equality', () => {
    const exp = new ResourceVersionExpectations({ clock: new FakeClock(), timeoutMs: 1000 });
    const seen = (expected: string, cached: string) => {
      exp.expectUpdated('k', { metadata: { resourceVersion: expected } });
      const ok = exp.isUpdatedSatisfied('k', { metadata: { resourceVersion: cached } });
      exp.delete('k');
      return ok;
    };
    assert.equal(seen('120', '119'), false);
    assert.equal(seen('120', '120'), true);
    assert.equal(seen('9007199254740993', '9007199254740992'), false);
    assert.equal(seen('9007199254740993', '10000000000000000'), true);
    assert.equal(seen('abc', 'abd'), false, 'opaque: only the same text satisfies');
    assert.equal(seen('abc', 'abc'), true);
    assert.equal(seen('0120', '119'), false, 'leading zeros still compare as numbers');
  });

  test('times out as a leak', () => {
    const clock = new FakeClock();
    const exp = new ResourceVersionExpectations({ clock, timeoutMs: 1000 });
    exp.expectUpdated('k', { metadata: { resourceVersion: '5' } });
    clock.advance(999);
    assert.equal(exp.isUpdatedSatisfied('k', { metadata: { resourceVersion: '4' } }), false);
    clock.advance(1);
    assert.equal(exp.isUpdatedSatisfied('k', { metadata: { resourceVersion: '4' } }), true);
    assert.equal(exp.leaks(), 1);
  });
});
