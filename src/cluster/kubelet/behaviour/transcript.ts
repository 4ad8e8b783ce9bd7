/**
 * What a simulated process wrote, on the interpreter's virtual clock (docs/design/simulated-nodes.md
 * §20): lines stamped with the milliseconds since the process started, and, for a loop that runs
 * until stopped, the lines of one turn of its body repeated every turn.
 */

export type StreamName = 'stdout' | 'stderr';

export interface WrittenText { atMs: number; stream: StreamName; text: string }

/** A loop's output: `lines` (stamped from the turn's start) again every `everyMs` from `fromMs` on. */
export interface RepeatedOutput { fromMs: number; everyMs: number; lines: WrittenText[] }

/** What the facts of a container answer: its host name, files with known content, the time. */
export interface ContainerFacts {
  hostname: string;
  files: ReadonlyMap<string, string>;
  /** Wall-clock milliseconds at the process's start (for `date`). */
  startedAtMs: number;
  /** The variables are the process's whole environment (an exec), not only the spec's literal values. */
  exactEnv: boolean;
}

export class Transcript {
  readonly written: WrittenText[] = [];
  repeat?: RepeatedOutput;

  constructor(readonly facts?: ContainerFacts) {}

  write(atMs: number, stream: StreamName, text: string): void {
    if (text !== '') this.written.push({ atMs, stream, text });
  }

  /** Everything written on `stream` up to `untilMs` (repeated turns included), in order. */
  textUntil(untilMs: number, stream?: StreamName): WrittenText[] {
    const out = this.written.filter((w) => w.atMs <= untilMs && (!stream || w.stream === stream));
    const r = this.repeat;
    if (r && r.everyMs > 0 && r.lines.length > 0) {
      for (let turn = r.fromMs; turn <= untilMs && out.length < 100_000; turn += r.everyMs) {
        for (const l of r.lines) if (turn + l.atMs <= untilMs && (!stream || l.stream === stream)) out.push({ ...l, atMs: turn + l.atMs });
      }
    }
    return out;
  }

  /** The time of the first write after `afterMs`, or undefined when nothing more will be written. */
  nextAfter(afterMs: number): number | undefined {
    const fixed = this.written.find((w) => w.atMs > afterMs)?.atMs;
    const r = this.repeat;
    let repeated: number | undefined;
    if (r && r.everyMs > 0 && r.lines.length > 0) {
      const turn = Math.max(0, Math.floor((afterMs - r.fromMs) / r.everyMs));
      for (let t = r.fromMs + turn * r.everyMs; repeated === undefined && t <= afterMs + 2 * r.everyMs; t += r.everyMs) {
        repeated = r.lines.map((l) => t + l.atMs).find((at) => at > afterMs);
      }
    }
    if (fixed === undefined) return repeated;
    return repeated === undefined ? fixed : Math.min(fixed, repeated);
  }
}
