/**
 * A command run in a running simulated container (`kubectl exec`, CRI ExecSync): the interpreter of
 * §9 reads it with the container's whole environment and facts, and what it prints is its output
 * (docs/design/simulated-nodes.md §20). A command the interpreter does not know is a program of the
 * image: it runs silently and exits 0.
 */
import { runCommand, type Arg } from './commands.js';
import { UnknownCommand } from './process.js';
import { runScript } from './shell-run.js';
import { Transcript, type ContainerFacts } from './transcript.js';

export interface ExecOutcome {
  /** What the command writes, stamped from the exec's start. */
  transcript: Transcript;
  exitCode: number;
  /** How long it runs; Infinity runs until the caller stops it. */
  ms: number;
  /** The interpreter did not know the command (it ran as an opaque program). */
  unknown?: string;
}

export function execCommand(argv: string[], env: ReadonlyMap<string, string>, facts: ContainerFacts, stdinOpen = false): ExecOutcome {
  const transcript = new Transcript(facts);
  try {
    const outcome = runCommand(argv.map((text): Arg => ({ text, dynamic: false })), { stdinOpen, variables: env, runScript, out: transcript, atMs: 0 });
    return { transcript, exitCode: outcome.status & 0xff, ms: outcome.ms };
  } catch (e) {
    if (!(e instanceof UnknownCommand)) throw e;
    return { transcript, exitCode: 0, ms: 0, unknown: e.message };
  }
}
