import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { flush } from '../../machinery/clock.js';
import { InFlight } from './in-flight.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('InFlight', () => {
  test('slot waits while the limit is reached', async () => {
    const f = new InFlight(2);
    const a = deferred();
    const b = deferred();
    f.add(a.promise);
    f.add(b.promise);
    let got = false;
    void f.slot().then(() => { got = true; });
    await flush();
    assert.equal(got, false);
    a.resolve();
    await flush();
    assert.equal(got, true);
    b.resolve();
    await f.drain();
    assert.equal(f.size, 0);
  });

  test('openAll wakes waiters and stops limiting', async () => {
    const f = new InFlight(1);
    f.add(deferred().promise);
    const waiting = f.slot();
    f.openAll();
    await waiting;
    await f.slot();
  });
});
