import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execCommand } from './exec-command.js';
import { readCommand } from './read-command.js';
import { Transcript } from './transcript.js';

const facts = { hostname: 'web-0', files: new Map([['/etc/hostname', 'web-0\n']]), startedAtMs: Date.UTC(2026, 10, 5, 14, 1, 2), exactEnv: true };
const env = new Map([['GREETING', 'hi'], ['HOSTNAME', 'web-0']]);
const stdout = (t: Transcript) => t.textUntil(Infinity, 'stdout').map((w) => w.text).join('');

test('exec: cat /etc/hostname, echo, hostname, env, printenv, sh -c with exit codes', () => {
  assert.equal(stdout(execCommand(['cat', '/etc/hostname'], env, facts).transcript), 'web-0\n');
  assert.equal(stdout(execCommand(['hostname'], env, facts).transcript), 'web-0\n');
  assert.equal(stdout(execCommand(['echo', '-n', 'a', 'b'], env, facts).transcript), 'a b');
  assert.equal(stdout(execCommand(['env'], env, facts).transcript), 'GREETING=hi\nHOSTNAME=web-0\n');
  assert.deepEqual(execCommand(['printenv', 'NOPE'], env, facts).exitCode, 1);
  const sh = execCommand(['sh', '-c', 'echo "$GREETING there"; printf "%s-%d\\n" x 7; exit 3'], env, facts);
  assert.equal(stdout(sh.transcript), 'hi there\nx-7\n');
  assert.equal(sh.exitCode, 3);
  assert.equal(stdout(execCommand(['sh', '-c', 'echo piped | cat'], env, facts).transcript), 'piped\n');
  assert.equal(stdout(execCommand(['date'], env, facts).transcript), 'Thu Nov  5 14:01:02 UTC 2026\n');
  assert.equal(execCommand(['my-tool', '--x'], env, facts).unknown, 'my-tool is not a command the simulator knows');
});

test('a container command: lines stamped on the virtual clock, a loop repeats its turn', () => {
  const out = new Transcript();
  readCommand({ image: 'busybox', command: ['sh', '-c', 'echo start; sleep 2; while true; do echo tick; sleep 5; done'] }, out);
  assert.deepEqual(out.textUntil(12_500).map((w) => [w.atMs, w.text]), [[0, 'start\n'], [2000, 'tick\n'], [7000, 'tick\n'], [12_000, 'tick\n']]);
  assert.equal(out.nextAfter(12_000), 17_000);
  assert.equal(out.nextAfter(0), 2000);
});
