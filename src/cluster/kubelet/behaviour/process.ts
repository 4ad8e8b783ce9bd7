/**
 * What a simulated container's process does once it runs, and what running a command (or a piece
 * of a shell script) amounts to while the interpreter reads it. Time is in milliseconds; Infinity
 * means "until stopped". See docs/design/simulated-nodes.md §9.
 */

/** The plan the fake runtime executes: exit with a code after some time, or run until stopped. */
export type ProcessPlan =
  | { ends: 'exit'; afterMs: number; exitCode: number }
  | { ends: 'never' };

export const runsUntilStopped: ProcessPlan = { ends: 'never' };

export function exitsAfter(afterMs: number, exitCode: number): ProcessPlan {
  return Number.isFinite(afterMs) ? { ends: 'exit', afterMs, exitCode } : runsUntilStopped;
}

/** What running one command (or script fragment) took: its time, its status, and whether it ended the shell. */
export interface Outcome {
  ms: number;
  status: number;
  /** `exit` or `exec` ended the shell itself: nothing after it runs. */
  endsShell?: boolean;
  /** `break` left the innermost loop. */
  breaksLoop?: boolean;
}

export const instant = (status = 0): Outcome => ({ ms: 0, status });
export const forever: Outcome = { ms: Infinity, status: 0 };

/** Thrown when the interpreter meets something it cannot predict; the caller falls back (§9). */
export class UnknownCommand extends Error {}

/** The plan of a whole container process from the outcome of its command line. */
export function planOf(outcome: Outcome): ProcessPlan {
  return exitsAfter(outcome.ms, outcome.status & 0xff);
}
