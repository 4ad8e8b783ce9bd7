/**
 * The driver: applies a sequence's steps to the cluster (spec writes through the user's client,
 * readiness flaps on the simulated nodes, manager restarts), waits where a step says so, and
 * reports what the watched CloneSet's checks found. runSequences runs the first `count` sequences
 * of a seed, `concurrency` at a time, each on its own CloneSet in one environment.
 */
import { CloneSets } from '../../../api/kruise/resource-types.js';
import type { CloneSet } from '../../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel } from '../../../api/kruise/workloads/labels.js';
import { Pods } from '../../../api/resource-type.js';
import type { PropertyEnv } from './env.js';
import { cloneSetOf, generate, ns, patchFor, podKeyOf, specView, type Knobs, type Sequence, type Step } from './model.js';
import type { Watched } from './watched.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Timing {
  /** Bound of a `settle` wait between steps (a sequence goes on after it). */
  settleMs: number;
  /** Bound of the final settle (a failure after it). */
  finalMs: number;
}

export interface SequenceOutcome {
  name: string;
  violations: string[];
  trace: string[];
  settleTimeouts: number;
  settleMs: number[];
  finalMs: number;
  stats: Watched['stats'];
}

/** Creates the CloneSet (no patch) or patches it, with the spec in the observer's window first. */
export async function writeSpec(penv: PropertyEnv, w: Watched, k: Knobs, patch: Record<string, unknown> | undefined, name: string): Promise<void> {
  const view = specView(k);
  w.pushSpec(view);
  const out = patch
    ? await penv.client.patch<CloneSet>(CloneSets, ns, name, 'merge', patch)
    : await penv.client.create<CloneSet>(CloneSets, cloneSetOf(name, k));
  w.written(view, out.metadata.generation ?? 0);
}

/** Makes the step's pod (by name order) not ready for `downMs`; the returned promise ends the flap. */
function flap(penv: PropertyEnv, w: Watched, step: Extract<Step, { kind: 'flap' }>): Promise<void> {
  const pods = w.live().sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!));
  const pod = pods[step.pod % Math.max(pods.length, 1)];
  if (!pod) return Promise.resolve(w.note('flap: no pod'));
  const { name, uid } = pod.metadata as { name: string; uid: string };
  w.invariants.flapStarted(uid);
  penv.nodes.setContainerReady(ns, name, 'web', false);
  w.note(`flap ${name} not ready for ${step.downMs}ms`);
  return sleep(step.downMs).then(() => {
    w.invariants.flapEnded(uid);
    penv.nodes.setContainerReady(ns, name, 'web', true);
    w.note(`flap ${name} restored`);
  });
}

async function tamper(penv: PropertyEnv, w: Watched): Promise<void> {
  const pod = w.live().find((p) => podKeyOf(p) !== w.latest.key);
  if (pod) await penv.client.patch(Pods, ns, pod.metadata.name!, 'merge', { metadata: { labels: { [ControllerRevisionHashLabel]: 'tampered' } } });
}

export async function runSequence(penv: PropertyEnv, name: string, seq: Sequence, timing: Timing, setup?: (w: Watched) => void): Promise<SequenceOutcome> {
  const w = penv.observer.watch(name);
  setup?.(w);
  const k: Knobs = { ...seq.start };
  const out: SequenceOutcome = { name, violations: w.violations, trace: w.trace, settleTimeouts: 0, settleMs: [], finalMs: 0, stats: w.stats };
  const flaps: Promise<void>[] = [];
  const settle = async (ms: number) => {
    const t0 = Date.now();
    const reason = await w.until(() => w.notSettled(), ms);
    out.settleMs.push(Date.now() - t0);
    if (reason) w.note(`not settled after ${ms}ms: ${reason}`);
    else w.protect();
    if (reason) out.settleTimeouts++;
  };
  try {
    await writeSpec(penv, w, k, undefined, name);
    await settle(timing.settleMs);
    for (const step of seq.steps) {
      w.note(`step ${JSON.stringify(step)}`);
      if (step.kind === 'restart') await penv.restart();
      else if (step.kind === 'flap') flaps.push(flap(penv, w, step));
      else if (step.kind === 'tamper') await tamper(penv, w);
      else await writeSpec(penv, w, k, patchFor(step, k), name);
      if (step.wait === 'settle') await settle(timing.settleMs);
      else await sleep(step.wait);
    }
    await Promise.all(flaps);
    if (k.paused) await writeSpec(penv, w, k, patchFor({ kind: 'pause', paused: false, wait: 'settle' }, k), name);
    const t0 = Date.now();
    const reason = await w.until(() => w.notSettled(), timing.finalMs);
    out.finalMs = Date.now() - t0;
    if (reason) w.fail(`final state not reached in ${timing.finalMs}ms: ${reason}`);
    else for (const problem of w.finalProblems()) w.fail(problem);
  } catch (e) {
    w.fail(`driver error: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    penv.observer.unwatch(name);
    await penv.client.delete(CloneSets, ns, name, { propagationPolicy: 'Background' }).catch(() => undefined);
  }
  return out;
}

export interface RunOptions extends Timing {
  seed: number;
  /** The first `count` sequences of the seed. */
  count: number;
  concurrency: number;
  /** Run only this sequence index (replay). */
  only?: number;
  /** CloneSet names are `<prefix><index>`. */
  prefix: string;
  /** Safety cap: no sequence starts after this long (the rest are skipped and reported). */
  budgetMs?: number;
}

export interface Failure {
  index: number;
  sequence: Sequence;
  outcome: SequenceOutcome;
}

export interface RunSummary {
  seed: number;
  sequences: number;
  /** Sequences not started because budgetMs ran out. */
  skipped: number;
  steps: Record<Step['kind'], number>;
  failures: Failure[];
  outcomes: SequenceOutcome[];
  wallMs: number;
}

/** Runs the seed's sequences `concurrency` at a time, in index order, in one environment. */
export async function runSequences(penv: PropertyEnv, o: RunOptions, onDone?: (i: number, outcome: SequenceOutcome) => void): Promise<RunSummary> {
  const all = generate(o.seed, Math.max(o.count, (o.only ?? -1) + 1));
  const indexes = o.only !== undefined ? [o.only] : all.map((_, i) => i);
  const steps = { scale: 0, template: 0, partition: 0, pause: 0, flap: 0, restart: 0, tamper: 0 };
  const summary: RunSummary = { seed: o.seed, sequences: 0, skipped: 0, steps, failures: [], outcomes: [], wallMs: 0 };
  const t0 = Date.now();
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(o.concurrency, indexes.length) }, async () => {
    while (next < indexes.length && Date.now() - t0 < (o.budgetMs ?? Infinity)) {
      const index = indexes[next++]!;
      const sequence = all[index]!;
      for (const s of sequence.steps) steps[s.kind]++;
      summary.sequences++;
      const outcome = await runSequence(penv, `${o.prefix}${index}`, sequence, o);
      summary.outcomes.push(outcome);
      if (outcome.violations.length > 0) summary.failures.push({ index, sequence, outcome });
      onDone?.(index, outcome);
    }
  }));
  summary.skipped = indexes.length - next;
  summary.failures.sort((a, b) => a.index - b.index);
  summary.wallMs = Date.now() - t0;
  return summary;
}

/** A failure as text: how to replay it, the sequence, what broke and the CloneSet's trace. */
export function describeFailure(seed: number, f: Failure, replay: string): string {
  return [
    `sequence #${f.index} (${f.outcome.name}) with seed ${seed}; replay: ${replay}`,
    `sequence: ${JSON.stringify(f.sequence)}`,
    ...f.outcome.violations.map((v) => `  violation: ${v}`),
    '  trace:', ...f.outcome.trace.map((t) => `    ${t}`),
  ].join('\n');
}
