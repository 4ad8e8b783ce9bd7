/**
 * `kubectl exec -it pod -- sh` (or attach to a container whose shell waits on stdin): a shell that
 * reads what the client types one line at a time and runs each through the interpreter, answering
 * at once (docs/design/streaming.md §3). With a terminal it echoes what is typed and prints a
 * prompt, as a shell on a pty would; `exit [N]` or the end of input ends it.
 */
import type { ProcessExit, ProcessIO, ProcessSession } from '../../../api/pod-streams.js';
import { execCommand } from '../behaviour/exec-command.js';
import type { ExecRequest } from './exec-process.js';

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh']);

/** A shell with neither `-c` nor a script file: it reads its commands from stdin. */
export function isInteractiveShell(command: string[]): boolean {
  const [program, ...args] = command;
  return shells.has((program ?? '').replace(/^.*\//, '')) && args.every((a) => a.startsWith('-') && !/^-[a-z]*c/.test(a));
}

export function interactiveShell(req: Omit<ExecRequest, 'command'>, io: ProcessIO): ProcessSession {
  let settle!: (exit: ProcessExit) => void;
  const done = new Promise<ProcessExit>((resolve) => { settle = resolve; });
  const prompt = req.tty ? '/ # ' : '';
  const out = (text: string) => io.stdout(req.tty ? text.replace(/\r?\n/g, '\r\n') : text);
  let line = '';
  let last = 0;
  let ended = false;
  const run = (text: string) => {
    const result = execCommand(['sh', '-c', text], req.env, req.facts, false);
    for (const w of result.transcript.textUntil(result.ms === Infinity ? 0 : result.ms)) {
      if (w.stream === 'stderr' && !req.tty) io.stderr(w.text);
      else out(w.text);
    }
    last = result.exitCode;
    if (/^\s*exit(\s+\d+)?\s*$/.test(text)) finish(last);
    else if (prompt) io.stdout(prompt);
  };
  const finish = (exitCode: number) => { if (!ended) { ended = true; settle({ exitCode }); } };
  if (prompt) io.stdout(prompt);
  return {
    stdin(data) {
      for (const ch of Buffer.from(data).toString('utf8')) {
        if (ended) return;
        if (ch === '\x04' && line === '') return finish(last); // ^D
        if (ch === '\r' || ch === '\n') {
          if (req.tty) io.stdout('\r\n');
          const text = line;
          line = '';
          if (text.trim()) run(text);
          else if (prompt) io.stdout(prompt);
        } else if (ch === '\x7f') {
          if (line) { line = line.slice(0, -1); if (req.tty) io.stdout('\b \b'); }
        } else {
          line += ch;
          if (req.tty) io.stdout(ch);
        }
      }
    },
    closeStdin: () => finish(last),
    cancel: () => finish(last),
    done,
  };
}
