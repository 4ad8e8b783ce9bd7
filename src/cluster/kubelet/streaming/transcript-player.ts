/**
 * Plays what a simulated process wrote (a Transcript on its virtual clock) against the wall clock:
 * what is due now at once, the rest when its time comes (docs/design/streaming.md §3).
 */
import type { Clock } from '../../../machinery/clock.js';
import type { Transcript, WrittenText } from '../behaviour/transcript.js';

/**
 * Emits every write of `transcript` stamped after `fromMs` (process time) as the process's time
 * `clock.now() - startedAt` reaches it, up to `untilMs`. Returns the function that stops it.
 */
export function playTranscript(clock: Clock, transcript: Transcript, startedAt: number, fromMs: number, untilMs: number, emit: (w: WrittenText) => void): () => void {
  let cancel: (() => void) | undefined;
  let stopped = false;
  let doneUpTo = fromMs;
  const step = () => {
    if (stopped) return;
    const now = Math.min(clock.now() - startedAt, untilMs);
    for (const w of transcript.textUntil(now)) if (w.atMs > doneUpTo) emit(w);
    doneUpTo = Math.max(doneUpTo, now);
    const next = transcript.nextAfter(doneUpTo);
    if (next !== undefined && next <= untilMs) cancel = clock.after(next - (clock.now() - startedAt), step);
  };
  // writes at time 0 count as "after" a start at -1
  doneUpTo = fromMs;
  step();
  return () => { stopped = true; cancel?.(); };
}
