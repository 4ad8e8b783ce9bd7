import { test } from 'node:test';
import assert from 'node:assert/strict';
import { progressOn } from './progress.js';

const sink = (isTTY: boolean) => {
  let written = '';
  return { stream: { isTTY, write: (s: string) => { written += s; return true; } } as unknown as NodeJS.WritableStream & { isTTY: boolean }, text: () => written };
};

test('on a terminal the step under way is one line rewritten in place, then replaced by the finished line', () => {
  const out = sink(true);
  const p = progressOn(out.stream);
  p.line('a applied');
  p.live('waiting: 0/2');
  p.live('waiting: 0/2');
  p.live('waiting: 1/2');
  p.line('ready: 2/2');
  assert.equal(out.text(), 'a applied\nwaiting: 0/2\r\x1b[Kwaiting: 1/2\r\x1b[Kready: 2/2\n');
});

test('elsewhere each change of the step under way is a plain line, repeats left out', () => {
  const out = sink(false);
  const p = progressOn(out.stream);
  p.live('waiting: 0/2');
  p.live('waiting: 0/2');
  p.live('waiting: 1/2');
  p.line('ready: 2/2');
  assert.equal(out.text(), 'waiting: 0/2\nwaiting: 1/2\nready: 2/2\n');
});
