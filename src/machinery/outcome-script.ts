/**
 * The outcome of simulated probes over a container's life, scripted by a pod annotation
 * (docs/design/simulated-nodes.md §14; the simulated kubelet's probes, and what the fake runtime's
 * ExecSync and kruise-daemon's simulated TCP/HTTP probes answer): a comma-separated list of clauses,
 *
 *   succeed              every probe succeeds (the default)
 *   fail                 every probe fails
 *   fail-after=D         probes succeed until D after the container started, then fail
 *   succeed-after=D      probes fail until D after the container started, then succeed
 *   flap=U/D             probes succeed for U, then fail for D, and so on from the start
 *   latency=D            each probe answers after D; at or past timeoutSeconds it times out (fails)
 *
 * D is a Go duration (`30s`, `1m30s`, `500ms`) or a plain number of seconds. At most one of the
 * first five clauses; `latency` combines with any of them.
 */
import { parseGoDuration } from './go-duration.js';

export type OutcomeShape =
  | { kind: 'succeed' }
  | { kind: 'fail' }
  | { kind: 'fail-after'; afterMs: number }
  | { kind: 'succeed-after'; afterMs: number }
  | { kind: 'flap'; upMs: number; downMs: number };

export interface OutcomeScript {
  shape: OutcomeShape;
  latencyMs: number;
}

export const defaultOutcome: OutcomeScript = { shape: { kind: 'succeed' }, latencyMs: 0 };

/** A duration in ms: a Go duration or a plain (non-negative) number of seconds. */
export function parseSimDuration(text: string): number {
  const t = text.trim();
  const ms = /^\d+(\.\d+)?$/.test(t) ? Number(t) * 1000 : parseGoDuration(t);
  if (!(ms >= 0)) throw new Error(`duration ${JSON.stringify(text)} must not be negative`);
  return ms;
}

function parseShape(clause: string): OutcomeShape | undefined {
  const [word, value] = clause.split('=', 2).map((s) => s.trim());
  if (value === undefined) {
    if (word === 'succeed' || word === 'fail') return { kind: word };
    return undefined;
  }
  if (word === 'fail-after' || word === 'succeed-after') return { kind: word, afterMs: parseSimDuration(value) };
  if (word === 'flap') {
    const [up, down] = value.split('/');
    if (down === undefined) throw new Error(`flap=${value}: expected flap=<up>/<down>`);
    const shape = { kind: 'flap' as const, upMs: parseSimDuration(up), downMs: parseSimDuration(down) };
    if (shape.upMs + shape.downMs <= 0) throw new Error(`flap=${value}: the cycle must be longer than 0`);
    return shape;
  }
  return undefined;
}

/** Parses an annotation value; throws an Error naming the bad clause. */
export function parseOutcomeScript(text: string): OutcomeScript {
  let shape: OutcomeShape | undefined;
  let latencyMs = 0;
  for (const clause of text.split(',').map((c) => c.trim()).filter((c) => c !== '')) {
    if (clause.startsWith('latency=')) {
      latencyMs = parseSimDuration(clause.slice('latency='.length));
      continue;
    }
    const parsed = parseShape(clause);
    if (!parsed) throw new Error(`unknown clause ${JSON.stringify(clause)} (want succeed, fail, fail-after=D, succeed-after=D, flap=U/D or latency=D)`);
    if (shape) throw new Error(`more than one outcome in ${JSON.stringify(text)}`);
    shape = parsed;
  }
  return { shape: shape ?? { kind: 'succeed' }, latencyMs };
}

/** Whether a probe run `elapsedMs` after the container started succeeds (ignoring latency). */
export function succeedsAt(shape: OutcomeShape, elapsedMs: number): boolean {
  switch (shape.kind) {
    case 'succeed': return true;
    case 'fail': return false;
    case 'fail-after': return elapsedMs < shape.afterMs;
    case 'succeed-after': return elapsedMs >= shape.afterMs;
    case 'flap': return elapsedMs % (shape.upMs + shape.downMs) < shape.upMs;
  }
}

/** The earliest elapsed time at or after `elapsedMs` at which probes fail (Infinity: never). */
export function nextFailureFrom(shape: OutcomeShape, elapsedMs: number): number {
  if (!succeedsAt(shape, elapsedMs)) return elapsedMs;
  switch (shape.kind) {
    case 'fail-after': return shape.afterMs;
    case 'flap': {
      const cycle = shape.upMs + shape.downMs;
      if (shape.downMs === 0) return Infinity;
      return Math.floor(elapsedMs / cycle) * cycle + shape.upMs;
    }
    default: return Infinity;
  }
}
