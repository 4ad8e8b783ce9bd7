/**
 * The shell builtins that change the shell itself (§9): `exit`, `exec`, `break`, `wait`, `set -e`,
 * `export`/`unset`; `.`, `source`, `eval` and `return` are not understood. Anything else is a
 * command (commands.ts).
 */
import type { Arg } from './commands.js';
import { UnknownCommand } from './process.js';
import { setVariable } from './shell-expand.js';

/** The result of one step of a script. */
export interface Step { status: number; endsShell?: boolean; breaksLoop?: boolean; errexitExempt?: boolean }

/** What a builtin may read and change. */
export interface ShellState {
  now: number;
  jobs: number[];
  errexit: boolean;
  status: number;
  readonly vars: Map<string, string>;
  /** Runs a command (not a builtin), advancing `now`. */
  command(argv: Arg[]): Step;
}

export function runBuiltin(shell: ShellState, argv: Arg[]): Step {
  const [name, ...args] = argv;
  if (name.dynamic) throw new UnknownCommand(`command name ${name.text} is computed at run time`);
  switch (name.text) {
    case 'exit': {
      if (args[0]?.dynamic || (args[0] && !/^\d+$/.test(args[0].text))) throw new UnknownCommand('exit with a computed status');
      return { status: args[0] ? Number(args[0].text) & 0xff : shell.status, endsShell: true };
    }
    case 'exec': return args.length === 0 ? { status: 0 } : { ...shell.command(args), endsShell: true };
    case 'break': return { status: 0, breaksLoop: true };
    case 'wait':
      shell.now = Math.max(shell.now, ...shell.jobs);
      shell.jobs = [];
      return { status: 0 };
    case 'set':
      for (const a of args) if (/^[-+][a-z]*e/.test(a.text) || a.text === 'errexit') shell.errexit = !a.text.startsWith('+');
      return { status: 0 };
    case 'export': case 'readonly': case 'local':
      for (const a of args) {
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(a.text);
        if (m) setVariable(shell.vars, m[1], { text: m[2], dynamic: a.dynamic });
      }
      return { status: 0 };
    case 'unset':
      for (const a of args) shell.vars.set(a.text, '');
      return { status: 0 };
    case '.': case 'source': case 'eval': case 'return':
      throw new UnknownCommand(`${name.text} is not understood`);
    default: return shell.command(argv);
  }
}
