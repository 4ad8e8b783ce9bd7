/**
 * What the printing commands the interpreter knows write (docs/design/simulated-nodes.md §20):
 * `echo`, `printf`, `hostname`, `cat`/`head`/`tail` of the files the container's facts know
 * (`/etc/hostname`, `/etc/hosts`, ...), `env`/`printenv` from the variables the process has, and the
 * usual one-liners (`pwd`, `whoami`, `id`, `uname`, `date`). Output only: how long a command takes
 * and its status stay in commands.ts.
 */
import type { Arg } from './commands.js';
import type { ContainerFacts } from './transcript.js';

export interface Printed { stdout?: string; stderr?: string; status?: number }

export interface PrintContext {
  variables: ReadonlyMap<string, string>;
  facts?: ContainerFacts;
  /** What the previous member of a pipeline wrote. */
  piped?: string;
  /** Milliseconds since the process started (for `date`). */
  atMs: number;
}

const reserved = /^([0-9]+|#|\?|@|\*)$/;

export function printedBy(name: string, args: Arg[], ctx: PrintContext): Printed | undefined {
  const words = args.map((a) => a.text);
  switch (name) {
    case 'echo': return { stdout: echo(words) };
    case 'printf': return { stdout: printf(words) };
    case 'hostname': return { stdout: `${ctx.facts?.hostname ?? 'localhost'}\n` };
    case 'pwd': return { stdout: '/\n' };
    case 'whoami': return { stdout: 'root\n' };
    case 'id': return { stdout: 'uid=0(root) gid=0(root) groups=0(root)\n' };
    case 'uname': return { stdout: words.includes('-a') ? `Linux ${ctx.facts?.hostname ?? 'localhost'} 6.1.0 #1 SMP x86_64 GNU/Linux\n` : 'Linux\n' };
    case 'date': return { stdout: `${goDate(new Date((ctx.facts?.startedAtMs ?? Date.now()) + ctx.atMs))}\n` };
    case 'env': case 'printenv': return printEnv(name, words, ctx.variables);
    case 'cat': case 'head': case 'tail': case 'tee': return readFiles(name, words.filter((w) => !w.startsWith('-')), ctx);
  }
  return undefined;
}

function echo(words: string[]): string {
  let newline = true;
  while (words[0] === '-n' || words[0] === '-e' || words[0] === '-E') if (words.shift() === '-n') newline = false;
  return words.join(' ') + (newline ? '\n' : '');
}

/** printf FORMAT ARGS: `%s`, `%d` and `%%`, backslash escapes; the format is reused while arguments remain. */
function printf(words: string[]): string {
  const [format = '', ...rest] = words;
  const escaped = format.replace(/\\(n|t|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
  let out = '';
  do {
    out += escaped.replace(/%([sd%])/g, (_, c: string) => (c === '%' ? '%' : c === 'd' ? String(Number(rest.shift() ?? 0) | 0) : rest.shift() ?? ''));
  } while (rest.length > 0 && /%[sd]/.test(escaped));
  return out;
}

function printEnv(name: string, words: string[], variables: ReadonlyMap<string, string>): Printed {
  const exported = [...variables].filter(([k]) => !reserved.test(k));
  if (name === 'printenv' && words.length > 0) {
    const values = words.map((w) => variables.get(w));
    return { stdout: values.filter((v) => v !== undefined).map((v) => `${v}\n`).join(''), status: values.every((v) => v !== undefined) ? 0 : 1 };
  }
  return { stdout: exported.map(([k, v]) => `${k}=${v}\n`).join('') };
}

/** Files the facts know print; a file they do not know prints nothing (volumes are not simulated). */
function readFiles(name: string, files: string[], ctx: PrintContext): Printed {
  if (files.length === 0 || name === 'tee') return { stdout: ctx.piped ?? '' };
  return { stdout: files.map((f) => ctx.facts?.files.get(f) ?? '').join('') };
}

/** `date`'s default format: `Thu Nov  5 14:01:02 UTC 2026`. */
function goDate(d: Date): string {
  const [day, , month, , time] = d.toUTCString().split(' ');
  const pad = String(d.getUTCDate()).padStart(2, ' ');
  return `${day.replace(',', '')} ${month} ${pad} ${time} UTC ${d.getUTCFullYear()}`;
}
