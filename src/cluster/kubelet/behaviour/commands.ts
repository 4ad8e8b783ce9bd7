/**
 * The programs the interpreter knows (§9), as what running them takes: `sleep` its duration,
 * `true`/`false` and the usual no-output tools no time, `tail -f`, `yes` and server programs
 * forever; shells run their `-c` script, and wrappers (`env`, `nohup`, `timeout`, `busybox`) the
 * command they wrap. Anything else is unknown and the caller falls back.
 */
import { sleepMs } from './durations.js';
import { forever, instant, UnknownCommand, type Outcome } from './process.js';
import type { ShellStart } from './shell-run.js';
import { printedBy } from './command-output.js';
import type { Transcript } from './transcript.js';

/** One argument: its text, and whether part of it is only known at run time. */
export interface Arg { text: string; dynamic: boolean }

export interface CommandContext {
  stdinOpen: boolean;
  variables: ReadonlyMap<string, string>;
  runScript(script: string, start: ShellStart): Outcome;
  /** Where output goes (§20), stamped `atMs`; without it nothing is printed. */
  out?: Transcript;
  /** What the previous member of a pipeline wrote. */
  piped?: string;
  /** Milliseconds since the process started. */
  atMs?: number;
}

/** Commands that print or change files and return at once with status 0. */
const quick = new Set([
  'echo', 'printf', 'date', 'env', 'printenv', 'ls', 'pwd', 'whoami', 'hostname', 'id', 'uname', 'true', ':',
  'mkdir', 'touch', 'rm', 'cp', 'mv', 'ln', 'chmod', 'chown', 'cd', 'sync', 'df', 'du', 'ps', 'free', 'nproc',
  'uptime', 'stat', 'basename', 'dirname', 'trap', 'ulimit', 'umask', 'shift', 'logger', 'sha256sum', 'md5sum',
]);
/** Commands that read their files (or stdin when given none) and return. */
const filters = new Set(['cat', 'head', 'wc', 'sort', 'uniq', 'cut', 'tr', 'tee', 'sed', 'awk', 'base64']);
/** Programs that serve until stopped. */
const servers = new Set([
  'nginx', 'httpd', 'apache2', 'redis-server', 'postgres', 'mysqld', 'mariadbd', 'mongod', 'memcached', 'pause',
  'yes', 'top', 'watch', 'etcd', 'haproxy', 'envoy', 'caddy', 'traefik', 'sshd', 'crond',
]);
const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh', 'mksh']);

const commandName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export function runCommand(argv: Arg[], ctx: CommandContext): Outcome {
  if (argv.length === 0) return instant();
  const [first, ...args] = argv;
  if (first.dynamic) throw new UnknownCommand(`command name ${first.text} is computed at run time`);
  const name = commandName(first.text);
  if (shells.has(name)) return runShell(args, ctx);
  switch (name) {
    case 'sleep': return sleep(args);
    case 'false': return instant(1);
    case 'exit': return instant(args[0] && /^\d+$/.test(args[0].text) ? Number(args[0].text) : 0);
    case 'tail':
      if (args.some((a) => /^(-[a-zA-Z]*[fF]|--follow.*)$/.test(a.text))) return forever;
      print(name, args, ctx);
      return instant();
    case 'read': return ctx.stdinOpen ? forever : instant(1);
    case 'busybox': return runCommand(args, ctx);
    case 'nohup': case 'command': case 'time': return runCommand(args, ctx);
    case 'exec': return runCommand(args, ctx);
    case 'timeout': return timeout(args, ctx);
  }
  if (name === 'env' && withoutEnvSettings(args).length > 0) return runCommand(withoutEnvSettings(args), ctx);
  if (quick.has(name) || filters.has(name)) print(name, args, ctx);
  if (quick.has(name)) return instant(ctx.out?.facts?.exactEnv ? printedStatus(name, args, ctx) : 0);
  if (filters.has(name)) return ctx.stdinOpen && ctx.piped === undefined && !args.some((a) => !a.text.startsWith('-')) ? forever : instant();
  if (servers.has(name)) return forever;
  if (name === 'python' || name === 'python3') {
    if (args[0]?.text === '-m' && args[1]?.text === 'http.server') return forever;
  }
  throw new UnknownCommand(`${first.text} is not a command the simulator knows`);
}

function print(name: string, args: Arg[], ctx: CommandContext): void {
  if (!ctx.out) return;
  const at = ctx.atMs ?? 0;
  const out = printedBy(name, args, { variables: ctx.variables, facts: ctx.out.facts, piped: ctx.piped, atMs: at });
  if (out?.stdout) ctx.out.write(at, 'stdout', out.stdout);
  if (out?.stderr) ctx.out.write(at, 'stderr', out.stderr);
}

/** `printenv NAME` of an unset variable exits 1, but only where the whole environment is known. */
function printedStatus(name: string, args: Arg[], ctx: CommandContext): number {
  return printedBy(name, args, { variables: ctx.variables, facts: ctx.out?.facts, atMs: 0 })?.status ?? 0;
}

function sleep(args: Arg[]): Outcome {
  if (args.some((a) => a.dynamic)) throw new UnknownCommand('sleep with a computed duration');
  if (args.length === 0) return instant(1); // "sleep: missing operand"
  let total = 0;
  for (const a of args) {
    const ms = sleepMs(a.text);
    if (ms === undefined) return instant(1); // "sleep: invalid time interval"
    total += ms;
  }
  return { ms: total, status: 0 };
}

/** `timeout [-s SIG] N cmd`: the command's outcome, or status 124 after N. */
function timeout(args: Arg[], ctx: CommandContext): Outcome {
  let i = 0;
  while (args[i]?.text.startsWith('-')) i += /^-[sk]$/.test(args[i].text) ? 2 : 1;
  const limit = args[i] && !args[i].dynamic ? sleepMs(args[i].text) : undefined;
  if (limit === undefined) throw new UnknownCommand('timeout with a computed duration');
  const inner = runCommand(args.slice(i + 1), ctx);
  return limit > 0 && inner.ms > limit ? { ms: limit, status: 124 } : inner;
}

/** `env [-i] [-u NAME] [NAME=value]... cmd` runs cmd. */
function withoutEnvSettings(args: Arg[]): Arg[] {
  let i = 0;
  while (i < args.length && (args[i].text.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i].text))) i += args[i].text === '-u' ? 2 : 1;
  return args.slice(i);
}

/**
 * `sh [-eux...] -c SCRIPT [NAME [ARG]...]` runs SCRIPT; `sh` with neither script nor file reads its
 * stdin: closed (no `stdin: true`), it ends at once. A script file is not something we can read.
 */
function runShell(args: Arg[], ctx: CommandContext): Outcome {
  let i = 0;
  let command = false;
  let errexit = false;
  for (; i < args.length && /^[-+]/.test(args[i].text) && args[i].text !== '-' && args[i].text !== '--'; i++) {
    const flags = args[i].text;
    if (flags === '-o' || flags === '+o') { i++; continue; }
    if (/^-[a-z]*c/.test(flags)) command = true;
    if (/^-[a-z]*e/.test(flags)) errexit = true;
  }
  if (args[i]?.text === '-' || args[i]?.text === '--') i++;
  if (!command) {
    if (i < args.length) throw new UnknownCommand(`script file ${args[i].text}`);
    return ctx.stdinOpen ? forever : instant();
  }
  const script = args[i];
  if (!script) return instant(2); // "sh: -c requires an argument"
  if (script.dynamic) throw new UnknownCommand('a script computed at run time');
  const positional = args.slice(i + 1).map((a) => a.text);
  return ctx.runScript(errexit ? `set -e\n${script.text}` : script.text, {
    variables: ctx.variables, positional: positional.length > 0 ? positional : ['sh'], stdinOpen: ctx.stdinOpen, out: ctx.out, atMs: ctx.atMs,
  });
}
