/**
 * `kubectl attach` to a simulated container (docs/design/streaming.md §3): what its process writes
 * from now on (its transcript played from the present), and, for a shell waiting on its stdin
 * (`stdin: true` with no script), a shell that reads what the client types. The session ends when
 * the container exits; detaching leaves it running.
 */
import type { Clock } from '../../../machinery/clock.js';
import type { Container } from '../../../api/core/index.js';
import type { ProcessExit, ProcessIO, ProcessSession } from '../../../api/pod-streams.js';
import { readCommand } from '../behaviour/read-command.js';
import { imageDefault } from '../behaviour/image-defaults.js';
import { Transcript, type ContainerFacts, type WrittenText } from '../behaviour/transcript.js';
import { playTranscript } from './transcript-player.js';
import type { ExitWatch } from './container-log.js';
import { interactiveShell, isInteractiveShell } from './interactive-shell.js';

export interface AttachRequest {
  spec: Container;
  env: ReadonlyMap<string, string>;
  facts: ContainerFacts;
  stdin: boolean;
  tty: boolean;
  exited: ExitWatch;
}

function readsStdin(spec: Container): boolean {
  if (spec.stdin !== true) return false;
  const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
  return argv.length === 0 ? imageDefault(spec.image ?? '').kind === 'interactive' : isInteractiveShell(argv);
}

export function attachTo(clock: Clock, req: AttachRequest, io: ProcessIO): ProcessSession {
  let settle!: (exit: ProcessExit) => void;
  const done = new Promise<ProcessExit>((resolve) => { settle = resolve; });
  void done.then(() => req.exited.stop());
  if (readsStdin(req.spec) && req.stdin) {
    void req.exited.exit.then(({ exitCode }) => settle({ exitCode }));
    const shell = interactiveShell(req, io);
    void shell.done.then((exit) => settle(exit));
    return { ...shell, done, cancel: () => settle({ exitCode: 0 }) };
  }
  const transcript = new Transcript(req.facts);
  readCommand(req.spec, transcript);
  const startedAt = req.facts.startedAtMs;
  let playedUpTo = clock.now() - startedAt;
  const emit = (w: WrittenText) => {
    playedUpTo = Math.max(playedUpTo, w.atMs);
    const text = req.tty ? w.text.replace(/\r?\n/g, '\r\n') : w.text;
    if (w.stream === 'stderr' && !req.tty) io.stderr(text);
    else io.stdout(text);
  };
  const stop = playTranscript(clock, transcript, startedAt, playedUpTo, Infinity, emit);
  void req.exited.exit.then(({ exitCode, finishedAt }) => {
    stop();
    // a line written as the container exited may still wait for its timer: it is part of the output
    for (const w of transcript.textUntil(finishedAt - startedAt + 1)) if (w.atMs > playedUpTo) emit(w);
    settle({ exitCode });
  });
  void done.then(stop);
  return { stdin: () => undefined, closeStdin: () => undefined, cancel: () => { stop(); settle({ exitCode: 0 }); }, done };
}
