/**
 * One `kubectl exec` in a running simulated container (docs/design/streaming.md §3): the
 * interpreter reads the command with the container's environment and facts; its output plays on
 * the wall clock and its exit code ends the session when its virtual time has passed. A command
 * that runs until stopped ends when the client leaves. A shell started with stdin and no script
 * (`kubectl exec -it pod -- sh`) reads lines from the client instead (interactive-shell.ts).
 */
import type { Clock } from '../../../machinery/clock.js';
import type { ProcessExit, ProcessIO, ProcessSession } from '../../../api/pod-streams.js';
import { execCommand } from '../behaviour/exec-command.js';
import type { ContainerFacts } from '../behaviour/transcript.js';
import { playTranscript } from './transcript-player.js';
import { interactiveShell, isInteractiveShell } from './interactive-shell.js';

export interface ExecRequest {
  command: string[];
  env: ReadonlyMap<string, string>;
  facts: ContainerFacts;
  stdin: boolean;
  tty: boolean;
}

export function startExec(clock: Clock, req: ExecRequest, io: ProcessIO): ProcessSession {
  if (req.stdin && isInteractiveShell(req.command)) return interactiveShell(req, io);
  const outcome = execCommand(req.command, req.env, req.facts, false);
  const started = clock.now();
  let settle!: (exit: ProcessExit) => void;
  const done = new Promise<ProcessExit>((resolve) => { settle = resolve; });
  const tty = req.tty;
  const stopOutput = playTranscript(clock, outcome.transcript, started, -1, outcome.ms, (w) => {
    const text = tty ? w.text.replace(/\r?\n/g, '\r\n') : w.text;
    if (w.stream === 'stderr' && !tty) io.stderr(text);
    else io.stdout(text);
  });
  const stopTimer = Number.isFinite(outcome.ms) ? clock.after(outcome.ms, () => settle({ exitCode: outcome.exitCode })) : () => undefined;
  return {
    stdin: () => undefined,
    closeStdin: () => undefined,
    cancel: () => { stopOutput(); stopTimer(); settle({ exitCode: 137 }); },
    done,
  };
}
