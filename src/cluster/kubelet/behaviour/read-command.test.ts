/** The command interpreter (§9), table-driven: what each command line makes a container do. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCommand } from './read-command.js';
import type { Container } from '../../../api/core/index.js';

const never = 'runs until stopped';
const unknown = 'unknown';
const exit = (ms: number, code = 0) => `exits ${code} after ${ms} ms`;

function describe(c: Partial<Container>): string {
  const r = readCommand({ image: 'busybox', ...c });
  if (r.kind === 'unknown') return unknown;
  return r.plan.ends === 'never' ? never : exit(r.plan.afterMs, r.plan.exitCode);
}

const sh = (script: string): Partial<Container> => ({ command: ['sh', '-c', script] });

const cases: [string, Partial<Container>, string][] = [
  ['sleep seconds', { command: ['sleep', '2'] }, exit(2000)],
  ['sleep decimals', { command: ['sleep', '0.5'] }, exit(500)],
  ['sleep suffixes add up', { command: ['sleep', '1m', '30s', '1h'] }, exit(3_690_000)],
  ['sleep infinity', { command: ['sleep', 'infinity'] }, never],
  ['sleep with a bad operand fails like coreutils', { command: ['sleep', 'soon'] }, exit(0, 1)],
  ['a full path', { command: ['/bin/sleep', '3'] }, exit(3000)],
  ['true and false', { command: ['false'] }, exit(0, 1)],
  ['echo', { command: ['echo', 'hello', 'world'] }, exit(0)],
  ['date, env, ls, cat a file', sh('date; env; ls /; cat /etc/hosts'), exit(0)],
  ['exit N', sh('exit 3'), exit(0, 3)],
  ['sequence', sh('echo start; sleep 1; sleep 2; exit 4'), exit(3000, 4)],
  ['&& stops at a failure', sh('false && sleep 10'), exit(0, 1)],
  ['|| runs on failure', sh('false || sleep 1'), exit(1000)],
  ['the status of the last command', sh('sleep 1; false'), exit(1000, 1)],
  ['exec', sh('echo hi; exec sleep 5'), exit(5000)],
  ['exec ends the shell', sh('exec true; sleep 100'), exit(0)],
  ['tail -f /dev/null', { command: ['tail', '-f', '/dev/null'] }, never],
  ['while true', sh('while true; do echo tick; sleep 5; done'), never],
  ['while : on several lines', sh('while :\ndo\n  date\n  sleep 1\ndone'), never],
  ['a loop that exits', sh('while true; do sleep 2; exit 7; done'), exit(2000, 7)],
  ['a loop that breaks', sh('until false; do sleep 1; break; done; exit 2'), exit(1000, 2)],
  ['for over words', sh('for i in 1 2 3; do sleep 1; done'), exit(3000)],
  ['if', sh('if false; then sleep 9; else sleep 2; fi'), exit(2000)],
  ['trap then sleep infinity', sh("trap 'exit 0' TERM; sleep infinity"), never],
  ['sleep in the background and wait', sh('trap "exit 0" TERM; sleep 3 & wait'), exit(3000)],
  ['background does not block', sh('sleep 100 & sleep 1'), exit(1000)],
  ['set -e stops at a failure', sh('set -e; false; sleep 10'), exit(0, 1)],
  ['sh -ec', { command: ['/bin/sh', '-ec', 'false; sleep 10'] }, exit(0, 1)],
  ['bash -c with redirections', { command: ['bash', '-c', 'echo hi > /tmp/x 2>&1; sleep 1 >/dev/null'] }, exit(1000)],
  ['pipeline takes the slowest member, the status of the last', sh('sleep 2 | false'), exit(2000, 1)],
  ['! negates', sh('! true'), exit(0, 1)],
  ['subshell exit does not end the shell', sh('(exit 3); sleep 1'), exit(1000)],
  ['variables', sh('D=2; sleep $D; sleep "${D}"'), exit(4000)],
  ['container env and $(VAR)', { command: ['sleep', '$(WAIT)'], env: [{ name: 'WAIT', value: '4' }] }, exit(4000)],
  ['env in a script', { ...sh('sleep $WAIT'), env: [{ name: 'WAIT', value: '1.5' }] }, exit(1500)],
  ['exec "$@" with arguments', { command: ['sh', '-c', 'exec "$@"', '--', 'sleep', '6'] }, exit(6000)],
  ['comments', sh('# wait a bit\nsleep 1 # seconds'), exit(1000)],
  ['timeout cuts a long command', { command: ['timeout', '2', 'sleep', '10'] }, exit(2000, 124)],
  ['env wrapper', { command: ['env', 'A=1', 'sleep', '1'] }, exit(1000)],
  ['args alone on a shell image', { args: ['sleep', '3'] }, exit(3000)],
  ['server program', { command: ['nginx', '-g', 'daemon off;'] }, never],
  ['busybox applet', { command: ['busybox', 'sleep', '1'] }, exit(1000)],
  ['shell image without a command', {}, exit(0)],
  ['shell image with stdin open', { stdin: true }, never],
  ['alpine and ubuntu too', { image: 'ubuntu:24.04' }, exit(0)],
  ['a server image', { image: 'nginx:1.27' }, never],
  ['a server image with flags', { image: 'redis:7', args: ['--port', '7000'] }, never],
  ['an unknown image without a command', { image: 'example.com/app:1' }, unknown],
  ['an unknown program', { command: ['/app/server', '--port=80'] }, unknown],
  ['a computed sleep', sh('sleep $(cat /tmp/n)'), unknown],
  ['an unset variable', sh('sleep $UNSET'), unknown],
  ['a script file', { command: ['sh', '/scripts/run.sh'] }, unknown],
  ['unsupported syntax', sh('case $x in a) sleep 1;; esac'), unknown],
  ['a here-document', sh('cat <<EOF\nhi\nEOF'), unknown],
  ['an unterminated quote', sh('echo "oops'), unknown],
  ['a loop on a condition we cannot predict', sh('while [ ! -f /tmp/ready ]; do sleep 1; done'), unknown],
];

for (const [name, container, expected] of cases) {
  test(`interpreter: ${name}`, () => assert.equal(describe(container), expected));
}

test('interpreter: an unknown reading says why', () => {
  const r = readCommand({ image: 'busybox', command: ['/app/server'] });
  assert.deepEqual(r, { kind: 'unknown', why: '/app/server is not a command the simulator knows', commandGiven: true });
});
