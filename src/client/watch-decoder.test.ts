/** The shared watch decoder: framing across arbitrary chunks, ERROR events, and once-only close. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { WatchEvent } from '../api/meta.js';
import { StatusError } from '../machinery/errors.js';
import { DecodedEvents, WatchDecoder } from './watch-decoder.js';

function decoder() {
  const events: WatchEvent[] = [];
  const closes: (Error | undefined)[] = [];
  let aborts = 0;
  const d = new WatchDecoder({ onEvent: (e) => events.push(e), onClose: (e) => closes.push(e) });
  d.attach(() => { aborts++; });
  return { d, events, closes, aborts: () => aborts };
}

const line = (type: string, name: string) => `${JSON.stringify({ type, object: { metadata: { name: `${name}-é` } } })}\n`;

test('events split at any points arrive whole and in order', () => {
  const text = line('ADDED', 'a') + line('MODIFIED', 'a') + line('BOOKMARK', 'b') + line('DELETED', 'a');
  fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 })), (cuts) => {
    const { d, events, closes } = decoder();
    const points = [0, ...cuts.sort((x, y) => x - y), text.length];
    for (let i = 1; i < points.length; i++) d.data(text.slice(points[i - 1], points[i]));
    d.end();
    assert.deepEqual(events.map((e) => `${e.type}:${e.object.metadata.name}`), ['ADDED:a-é', 'MODIFIED:a-é', 'BOOKMARK:b-é', 'DELETED:a-é']);
    assert.deepEqual(closes, [undefined]);
  }));
});

test('a last event without a trailing newline is delivered at the end', () => {
  const { d, events } = decoder();
  d.data(line('ADDED', 'x').trim());
  assert.equal(events.length, 0);
  d.end();
  assert.equal(events.length, 1);
});

test('an ERROR Status closes with a StatusError and aborts the stream', () => {
  const { d, events, closes, aborts } = decoder();
  const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 1 (5)' };
  d.data(`${JSON.stringify({ type: 'ERROR', object: status })}\n${line('ADDED', 'late')}`);
  d.end();
  assert.equal(events.length, 0);
  assert.equal(closes.length, 1);
  const err = closes[0];
  assert.ok(err instanceof StatusError);
  assert.deepEqual([err.code, err.reason, err.message], [410, 'Expired', 'too old resource version: 1 (5)']);
  assert.equal(aborts(), 1);
});

test('malformed lines close with an error instead of being dropped', () => {
  for (const bad of ['{not json', '{"type":"ADDED"}', '{"type":"WHATEVER","object":{}}']) {
    const { d, events, closes } = decoder();
    d.data(`${bad}\n${line('ADDED', 'after')}`);
    assert.equal(events.length, 0, bad);
    assert.equal(closes.length, 1, bad);
    assert.match(String(closes[0]?.message), /malformed watch event/);
  }
});

test('stop() aborts once and silences everything after it', () => {
  const { d, events, closes, aborts } = decoder();
  d.stop();
  d.stop();
  d.data(line('ADDED', 'x'));
  d.failed(new Error('reset'));
  d.end();
  assert.deepEqual([events.length, closes.length, aborts()], [0, 0, 1]);
});

test('attach() after the stream closed aborts at once', () => {
  const d = new WatchDecoder({ onEvent: () => undefined, onClose: () => undefined });
  d.failed(new Error('refused'));
  let aborted = false;
  d.attach(() => { aborted = true; });
  assert.equal(aborted, true);
});

test('read-only watchers sharing a cache get one decoded object per event line; others get their own', () => {
  const shared = new DecodedEvents(2);
  const seen: WatchEvent[][] = [[], [], []];
  const ds = [shared, shared, undefined].map((cache, i) => new WatchDecoder({ onEvent: (e) => seen[i]!.push(e), onClose: () => undefined }, cache));
  for (const text of [line('ADDED', 'a'), line('MODIFIED', 'a')]) for (const d of ds) d.data(text);
  assert.equal(seen[0]![0], seen[1]![0]);
  assert.equal(seen[0]![1], seen[1]![1]);
  assert.notEqual(seen[2]![0], seen[0]![0]);
  assert.deepEqual(seen[2]![0], seen[0]![0]);
  for (const text of [line('ADDED', 'b'), line('ADDED', 'c'), line('ADDED', 'a')]) ds[0]!.data(text);
  ds[1]!.data(line('ADDED', 'a'));
  assert.notEqual(seen[1]![2], seen[0]![0], 'the oldest entries are forgotten');
  assert.equal(seen[1]![2], seen[0]![4]);
});
