/**
 * `kubectl logs` of a simulated container (docs/design/streaming.md §4): the log is what the
 * container's command wrote (the interpreter's transcript), stamped from the attempt's start and cut
 * at its exit. `previous` reads the attempt before; `sinceMs`, `tailLines`, `timestamps` and
 * `limitBytes` shape it as the kubelet's log reader does; `follow` keeps playing new lines until the
 * attempt exits.
 */
import type { Clock } from '../../../machinery/clock.js';
import type { LogOptions, LogSink } from '../../../api/pod-streams.js';
import type { Container } from '../../../api/core/index.js';
import { readCommand } from '../behaviour/read-command.js';
import { Transcript, type WrittenText } from '../behaviour/transcript.js';
import { playTranscript } from './transcript-player.js';

/** The container's exit as it comes, and the function that stops waiting for it. */
export interface ExitWatch { exit: Promise<{ exitCode: number; finishedAt: number }>; stop(): void }

/** One container attempt as the runtime reports it (ms since the epoch; finishedAt 0 while running). */
export interface Attempt { startedAt: number; finishedAt: number }

/** The attempt's lines, one entry per line, with their wall-clock time. */
function linesOf(written: WrittenText[], startedAt: number): { at: number; text: string }[] {
  const out: { at: number; text: string }[] = [];
  for (const w of written) {
    const parts = w.text.split(/(?<=\n)/);
    for (const p of parts) out.push({ at: startedAt + w.atMs, text: p });
  }
  return out;
}

/** RFC 3339 with nanoseconds, as the kubelet prefixes lines with `timestamps=true`. */
function stamp(at: number): string {
  return `${new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z')} `;
}

export function readContainerLog(clock: Clock, spec: Container, attempt: Attempt, options: LogOptions, sink: LogSink, watchExit: () => ExitWatch): () => void {
  const transcript = new Transcript();
  readCommand(spec, transcript);
  // +1: start and finish are rounded to milliseconds apart, and a line written as it exits is in the log
  const endMs = attempt.finishedAt > 0 ? attempt.finishedAt - attempt.startedAt + 1 : clock.now() - attempt.startedAt;
  let lines = linesOf(transcript.textUntil(endMs), attempt.startedAt);
  if (options.sinceMs !== undefined) lines = lines.filter((l) => l.at >= options.sinceMs!);
  if (options.tailLines !== undefined) lines = options.tailLines <= 0 ? [] : lines.slice(-options.tailLines);
  let budget = options.limitBytes ?? Infinity;
  const write = (l: { at: number; text: string }): boolean => {
    let text = options.timestamps ? stamp(l.at) + l.text : l.text;
    if (budget <= 0) return false;
    if (Buffer.byteLength(text) > budget) text = Buffer.from(text).subarray(0, budget).toString('utf8');
    budget -= Buffer.byteLength(text);
    sink.write(text);
    return budget > 0;
  };
  for (const l of lines) if (!write(l)) { sink.end(); return () => undefined; }
  if (!options.follow || attempt.finishedAt > 0) { sink.end(); return () => undefined; }
  let stopped = false;
  let stopPlay = () => undefined as void;
  const watch = watchExit();
  const stop = () => { stopped = true; stopPlay(); watch.stop(); };
  let playedUpTo = endMs;
  const play = (w: WrittenText) => {
    playedUpTo = Math.max(playedUpTo, w.atMs);
    for (const l of linesOf([w], attempt.startedAt)) if (!stopped && !write(l)) { stop(); sink.end(); }
  };
  stopPlay = playTranscript(clock, transcript, attempt.startedAt, endMs, Infinity, play);
  if (stopped) stopPlay();
  void watch.exit.then(({ finishedAt }) => {
    if (stopped) return;
    stopPlay();
    // the exit may be seen before the timer of a line written as it exited: those lines still belong
    for (const w of transcript.textUntil(finishedAt - attempt.startedAt + 1)) if (w.atMs > playedUpTo) play(w);
    stop();
    sink.end();
  });
  return stop;
}
