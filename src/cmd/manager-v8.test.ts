import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tuneHeapWhenIdle } from './manager-v8.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const burn = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await sleep(25);
  assert.ok(ok(), what);
}

test('the idle watch sets --optimize-for-size when idle, clears it when work starts, and sets it again', async () => {
  const flags: string[] = [];
  const last = () => flags.filter((f) => f.includes('optimize-for-size')).at(-1);
  const stop = tuneHeapWhenIdle({ intervalMs: 150, idleCpuShare: 0.5, idleIntervalMs: 20, busyLoopShare: 0.3 }, (f) => flags.push(f));
  try {
    assert.deepEqual(flags, []);
    await until('idle: flag set', () => last() === '--optimize-for-size');
    burn(200); // a check cannot run during it, so the next one sees 200 ms of CPU in one short interval
    await until('working: flag cleared', () => last() === '--no-optimize-for-size');
    await until('idle again: flag set', () => last() === '--optimize-for-size' && flags.length >= 3);
    assert.deepEqual(flags.slice(0, 3), ['--optimize-for-size', '--no-optimize-for-size', '--optimize-for-size']);
  } finally {
    stop();
  }
});
