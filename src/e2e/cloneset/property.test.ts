/**
 * Property test of the CloneSet controller: random sequences (scale, template change, partition
 * change, pause, readiness flaps, manager restarts), each on its own CloneSet, run concurrently in
 * one embedded cluster; property/invariants.ts and property/decisions.ts list what is checked on
 * every event and every pod create/delete. The sequences are the first CLONESET_PROPERTY_COUNT
 * (default 250) of CLONESET_PROPERTY_SEED (random unless set; printed, and in every failure).
 * Replay one: CLONESET_PROPERTY_SEED=<seed> CLONESET_PROPERTY_ONLY=<i>. The bench
 * `npm run bench:cloneset-property` runs many more.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { describeFailure, runSequence, runSequences, writeSpec, type Failure, type RunSummary } from './property/driver.js';
import { startPropertyEnv, type PropertyEnv } from './property/env.js';
import { isAvailable, ns, type Knobs, type Sequence } from './property/model.js';

const seed = Number(process.env.CLONESET_PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const only = process.env.CLONESET_PROPERTY_ONLY === undefined ? undefined : Number(process.env.CLONESET_PROPERTY_ONLY);
const count = Number(process.env.CLONESET_PROPERTY_COUNT ?? 250);
/** Safety cap on a badly overloaded machine: later sequences are skipped (and reported). */
const budgetMs = Number(process.env.CLONESET_PROPERTY_BUDGET_MS ?? 50_000);
const base: Knobs = { replicas: 3, policy: 'ReCreate', maxUnavailable: 1, maxSurge: 0, partition: 0, paused: false, template: 0 };
const replay = (i: number) => `CLONESET_PROPERTY_SEED=${seed} CLONESET_PROPERTY_ONLY=${i} node --test dist/e2e/cloneset/property.test.js`;

const total = (s: RunSummary, f: (o: RunSummary['outcomes'][number]) => number) => s.outcomes.reduce((n, o) => n + f(o), 0);

describe('CloneSet controller under random sequences', () => {
  let penv: PropertyEnv;
  before(async () => {
    penv = await startPropertyEnv({ nodes: 3, restartGapMs: 1_500 });
  });
  after(async () => {
    await penv?.stop();
  });

  test(`seeded sequences keep the budget, surge, partition and decision invariants and settle`, { timeout: 120_000 }, async (t) => {
    t.diagnostic(`seed ${seed}${only !== undefined ? `, only #${only}` : `, ${count} sequences`} (replay: CLONESET_PROPERTY_SEED=${seed})`);
    const summary = await runSequences(penv, { seed, count, only, budgetMs, concurrency: 32, settleMs: 15_000, finalMs: 30_000, prefix: 'prop-' });
    const settles = summary.outcomes.flatMap((o) => o.settleMs).sort((a, b) => a - b);
    t.diagnostic(`${summary.sequences} sequences (${summary.skipped} skipped by the ${budgetMs} ms cap; ${total(summary, (o) => o.settleTimeouts)} settle waits timed out) `
      + `in ${summary.wallMs} ms; steps ${JSON.stringify(summary.steps)}; manager restarts ${penv.restarts()}`);
    t.diagnostic(`pods created ${total(summary, (o) => o.stats.creates)}, deleted ${total(summary, (o) => o.stats.deletes)}, updated in place ${total(summary, (o) => o.stats.inPlace)}; `
      + `settle p50 ${settles[Math.floor(settles.length / 2)]} ms, max ${settles.at(-1)} ms`);
    const shown = (fs: Failure[]) => `seed ${seed}: ${fs.length} sequences failed; the same run again: CLONESET_PROPERTY_SEED=${seed} `
      + `CLONESET_PROPERTY_COUNT=${count} node --test dist/e2e/cloneset/property.test.js\n` + fs.slice(0, 3).map((f) => describeFailure(seed, f, replay(f.index))).join('\n\n');
    assert.equal(summary.failures.length, 0, shown(summary.failures));
    // the sequences did exercise what they claim to
    assert.ok(only !== undefined || summary.sequences >= Math.min(60, count), `seed ${seed}: only ${summary.sequences} sequences ran`);
    const [creates, deletes, inPlace] = [total(summary, (o) => o.stats.creates), total(summary, (o) => o.stats.deletes), total(summary, (o) => o.stats.inPlace)];
    assert.ok(creates > summary.sequences && deletes > 0 && (summary.sequences < 50 || inPlace > 0), 'sequences created, deleted and updated pods in place');
  });

  test('the checks catch faked controller bugs', { timeout: 60_000 }, async () => {
    const timing = { settleMs: 10_000, finalMs: 15_000 };
    const template: Sequence['steps'][number] = { kind: 'template', shift: 1, wait: 'settle' };
    const cases: { name: string; seq: Sequence; fault: Parameters<typeof runSequence>[4]; expect: RegExp }[] = [
      { name: 'fault-twice', seq: { start: { ...base, replicas: 2 }, steps: [template] }, expect: /beyond replicas \+ maxSurge = 2/,
        fault: (w) => { penv.observer.faults.duplicateCreate = w.name; } },
      { name: 'fault-extra-delete', seq: { start: base, steps: [template] }, expect: /delete of fault-extra-delete-\w+ without a reason/,
        fault: (w) => { penv.observer.faults.extraDelete = w.name; } },
      { name: 'fault-budget', seq: { start: base, steps: [template] }, expect: /availability 2 \(\+0 flapped\) fell below 3/,
        fault: (w) => { w.budgetSkew = 1; } },
      { name: 'fault-partition', seq: { start: { ...base, partition: 2 }, steps: [template, { kind: 'tamper', wait: 'settle' }] },
        expect: /pod fault-partition-\w+ moved fault-partition-\w+ -> tampered while partition\/pause keeps it \(P=2\)/, fault: () => undefined },
    ];
    const outcomes = await Promise.all(cases.map((c) => runSequence(penv, c.name, c.seq, timing, c.fault)));
    if (process.env.TEST_VERBOSE) cases.forEach((c, i) => console.log(c.name, outcomes[i]!.violations, outcomes[i]!.trace));
    cases.forEach((c, i) => assert.ok(outcomes[i]!.violations.some((v) => c.expect.test(v)), `${c.name}: ${outcomes[i]!.violations.join(' | ') || 'no violation'}`));
  });

  // The violation the sequences found (seed 77, #524 of 600), made deterministic: the delete budget
  // once left toDelete pods out of the unavailable count (controllers/cloneset/numbers.ts readyDeleteBudget).
  test('specifying an unready and a ready pod for deletion together keeps availability at R − maxUnavailable', { timeout: 60_000 }, async () => {
    const name = 'gap-repro';
    const w = penv.observer.watch(name);
    await writeSpec(penv, w, { ...base, replicas: 2 }, undefined, name);
    assert.equal(await w.until(() => w.notSettled(), 30_000), undefined);
    const [ready, unready] = w.live().map((p) => p.metadata.name!).sort();
    penv.nodes.setContainerReady(ns, unready!, 'web', false);
    assert.equal(await w.until(() => (w.live().some((p) => p.metadata.name === unready && !isAvailable(p)) ? undefined : 'ready'), 30_000), undefined);
    await penv.client.patch(CloneSets, ns, name, 'merge', { spec: { scaleStrategy: { podsToDelete: [ready, unready] } } });
    const reason = await w.until(() => w.notSettled(), 30_000);
    penv.observer.unwatch(name);
    assert.deepEqual(w.violations, [], w.trace.join('\n'));
    assert.equal(reason, undefined);
    assert.ok([ready, unready].every((n) => w.everSeen.get(n!)?.gone), 'both specified pods were replaced');
    assert.equal(w.stats.deletes, 2, 'each specified pod deleted once, no other');
  });
});
