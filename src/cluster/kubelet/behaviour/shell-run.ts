/**
 * Runs a parsed script on a virtual clock (§9): each command advances the shell's time by what it
 * takes, `&` starts a job beside it and `wait` waits for the jobs, pipelines take their slowest
 * member, `set -e` ends the script at the first failure POSIX says it should. A loop whose
 * condition held and whose body neither exits nor breaks runs forever: conditions the interpreter
 * can predict (`true`, `:`, `false`, `sleep N`) do the same thing every time.
 */
import { runCommand, type Arg } from './commands.js';
import type { Outcome } from './process.js';
import { runBuiltin, type ShellState, type Step } from './shell-builtins.js';
import { expandWord, setVariable, splitAssignments } from './shell-expand.js';
import { parseScript, type ShellNode } from './shell-parser.js';
import type { Word } from './shell-words.js';
import { Transcript } from './transcript.js';

/** What a shell starts with: the variables it knows, its positional parameters and its stdin. */
export interface ShellStart {
  variables: ReadonlyMap<string, string>;
  /** `$0`, `$1`, ... (`sh -c script name a b`). */
  positional: string[];
  stdinOpen: boolean;
  /** Where the script's output goes (§20), and the process time the script starts at. */
  out?: Transcript;
  atMs?: number;
}

export function runScript(script: string, start: ShellStart): Outcome {
  const shell = new Shell(start, 0);
  const step = shell.exec(parseScript(script));
  return { ms: shell.now, status: step.status };
}

class Shell implements ShellState {
  readonly vars: Map<string, string>;
  status = 0;
  jobs: number[] = [];
  errexit = false;
  private conditionDepth = 0;
  /** What the previous member of a pipeline wrote, for the filter reading it. */
  piped?: string;

  constructor(private readonly start: ShellStart, public now: number) {
    this.vars = new Map(start.variables);
    start.positional.forEach((v, i) => this.vars.set(String(i), v));
    this.vars.set('#', String(Math.max(0, start.positional.length - 1)));
  }

  private fork(out = this.start.out): Shell {
    const sub = new Shell({ ...this.start, variables: this.vars, positional: [], out }, this.now);
    sub.status = this.status;
    sub.errexit = this.errexit;
    return sub;
  }

  exec(node: ShellNode): Step {
    if (this.now === Infinity) return { status: 0, endsShell: true };
    const step = this.execNode(node);
    this.status = step.status;
    return step;
  }

  private execNode(node: ShellNode): Step {
    switch (node.kind) {
      case 'list': return this.list(node.items);
      case 'andOr': {
        let step = this.exec(node.first);
        for (const { op, node: next } of node.rest) {
          if (step.endsShell || step.breaksLoop || (op === '&&') !== (step.status === 0)) return { ...step, errexitExempt: true };
          step = this.exec(next);
        }
        return step;
      }
      case 'pipeline': {
        let piped: string | undefined;
        const members = node.commands.map((c, i) => {
          const last = i === node.commands.length - 1;
          const capture = this.start.out && !last ? new Transcript(this.start.out.facts) : undefined;
          const sub = this.fork(last ? this.start.out : capture);
          sub.piped = piped;
          const step = sub.exec(c);
          piped = capture?.written.filter((w) => w.stream === 'stdout').map((w) => w.text).join('');
          return { sub, step };
        });
        this.now = Math.max(...members.map((m) => m.sub.now));
        const status = members.at(-1)!.step.status;
        return node.negate ? { status: status === 0 ? 1 : 0, errexitExempt: true } : { status };
      }
      case 'simple': return this.simple(node.words);
      case 'loop': return this.loop(node.until, node.condition, node.body);
      case 'for': return this.forLoop(node.items, node.body);
      case 'if': return this.ifClause(node.branches, node.otherwise);
      case 'group': {
        if (!node.subshell) return this.exec(node.body);
        const sub = this.fork();
        const step = sub.exec(node.body);
        this.now = sub.now;
        return { status: step.status };
      }
    }
  }

  private list(items: { node: ShellNode; background: boolean }[]): Step {
    let step: Step = { status: this.status };
    for (const { node, background } of items) {
      if (background) {
        const job = this.fork();
        job.exec(node);
        this.jobs.push(job.now);
        step = { status: 0 };
        continue;
      }
      step = this.exec(node);
      if (step.endsShell || step.breaksLoop || this.now === Infinity) return step;
      if (this.errexit && this.conditionDepth === 0 && step.status !== 0 && !step.errexitExempt) return { status: step.status, endsShell: true };
    }
    return { status: step.status };
  }

  private condition(node: ShellNode): Step {
    this.conditionDepth++;
    try { return this.exec(node); } finally { this.conditionDepth--; }
  }

  private loop(until: boolean, condition: ShellNode, body: ShellNode): Step {
    const turnStart = this.now;
    const mark = this.start.out?.written.length ?? 0;
    const test = this.condition(condition);
    if (test.endsShell || (test.status === 0) === until) return { status: 0, endsShell: test.endsShell };
    const step = this.exec(body);
    if (step.endsShell) return step;
    if (step.breaksLoop) return { status: 0 };
    this.recordRepeat(turnStart, mark);
    this.now = Infinity; // the same condition holds again and again
    return { status: 0, endsShell: true };
  }

  /** The turn just run repeats forever: its output again every turn (§20). */
  private recordRepeat(turnStart: number, mark: number): void {
    const out = this.start.out;
    const everyMs = this.now - turnStart;
    if (!out || out.repeat || !Number.isFinite(everyMs) || everyMs <= 0) return;
    const base = this.start.atMs ?? 0;
    const lines = out.written.slice(mark).map((w) => ({ ...w, atMs: w.atMs - base - turnStart }));
    out.repeat = { fromMs: base + this.now, everyMs, lines };
  }

  private forLoop(items: Word[], body: ShellNode): Step {
    const count = items.flatMap((w) => expandWord(w, this.vars, this.status)).length;
    let step: Step = { status: 0 };
    for (let i = 0; i < count; i++) {
      step = this.exec(body);
      if (step.endsShell) return step;
      if (step.breaksLoop) return { status: 0 };
    }
    return step;
  }

  private ifClause(branches: { condition: ShellNode; body: ShellNode }[], otherwise?: ShellNode): Step {
    for (const { condition, body } of branches) {
      const test = this.condition(condition);
      if (test.endsShell) return test;
      if (test.status === 0) return this.exec(body);
    }
    return otherwise ? this.exec(otherwise) : { status: 0 };
  }

  private simple(words: Word[]): Step {
    const { assignments, rest } = splitAssignments(words, this.vars, this.status);
    if (rest.length > 0) return runBuiltin(this, rest.flatMap((w) => expandWord(w, this.vars, this.status)));
    for (const [name, value] of assignments) setVariable(this.vars, name, value);
    return { status: 0 };
  }

  command(argv: Arg[]): Step {
    const outcome = runCommand(argv, {
      stdinOpen: this.start.stdinOpen, variables: this.vars, runScript, out: this.start.out, atMs: (this.start.atMs ?? 0) + this.now, piped: this.piped,
    });
    this.now += outcome.ms;
    return { status: outcome.status };
  }
}
