/**
 * `npm run bench:cloneset-property`: the CloneSet property test (src/e2e/cloneset/property.test.ts)
 * at nightly size. Prints throughput, step mix, settle times, how close availability came to its
 * floor, and every failure with its replay command; writes bench-results/cloneset-property.json;
 * exits 1 on a failed sequence, 2 on a usage or environment error. `--help` lists the options.
 */
import { parseArgs } from 'node:util';
import { describeFailure, runSequences } from '../e2e/cloneset/property/driver.js';
import { startPropertyEnv } from '../e2e/cloneset/property/env.js';
import { percentile, writeResults } from './stats.js';

const usage = `usage: node dist/bench/cloneset-property.js [options]
  --sequences N    the first N sequences of the seed (default 1000)
  --concurrency C  sequences run at once, one CloneSet each (default 32)
  --seed S         sequence seed (default random; printed)
  --only I         replay sequence I of the seed alone
  --failures F     failures printed in full (default 3)
  --help           this text`;

const options = {
  sequences: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '32' },
  seed: { type: 'string' }, only: { type: 'string' }, failures: { type: 'string', default: '3' }, help: { type: 'boolean', default: false },
} as const;

/** A non-negative integer option, or an error naming it. */
function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const seed = int('seed', values.seed) ?? Math.floor(Math.random() * 2 ** 31);
  const count = int('sequences', values.sequences)!;
  const concurrency = Math.max(1, int('concurrency', values.concurrency)!);
  const only = int('only', values.only);
  const replay = (i: number) => `node dist/bench/cloneset-property.js --seed ${seed} --only ${i}`;
  console.log(`cloneset-property: seed ${seed}, ${only !== undefined ? `sequence #${only}` : `${count} sequences`}, concurrency ${concurrency}`);
  const penv = await startPropertyEnv({ nodes: 3, restartGapMs: 1_500 });
  let done = 0;
  const summary = await runSequences(penv, { seed, count, only, concurrency, settleMs: 20_000, finalMs: 60_000, prefix: 'bench-' }, (i, o) => {
    done++;
    if (o.violations.length > 0) console.log(`  #${i} FAILED: ${o.violations[0]}`);
    if (done % 100 === 0) console.log(`  ${done} sequences done`);
  });
  const restarts = penv.restarts();
  await penv.stop();
  const sum = (f: (o: (typeof summary.outcomes)[number]) => number) => summary.outcomes.reduce((n, o) => n + f(o), 0);
  const settles = summary.outcomes.flatMap((o) => o.settleMs).sort((a, b) => a - b);
  const finals = summary.outcomes.map((o) => o.finalMs).sort((a, b) => a - b);
  const slack = summary.outcomes.map((o) => o.stats.minSlack).filter(Number.isFinite);
  const results = {
    seed, sequences: summary.sequences, failed: summary.failures.length, wallSeconds: Math.round(summary.wallMs / 100) / 10,
    sequencesPerSecond: Math.round((summary.sequences / summary.wallMs) * 10_000) / 10,
    steps: summary.steps, managerRestarts: restarts,
    podCreates: sum((o) => o.stats.creates), podDeletes: sum((o) => o.stats.deletes), inPlaceUpdates: sum((o) => o.stats.inPlace),
    settleWaits: settles.length, settleTimeouts: sum((o) => o.settleTimeouts),
    settleMs: { p50: percentile(settles, 50), p95: percentile(settles, 95), p99: percentile(settles, 99), max: settles.at(-1) },
    finalSettleMs: { p50: percentile(finals, 50), max: finals.at(-1) },
    /** Sequences whose availability touched the floor (slack 0): the budget was used to the limit. */
    budgetUsedToTheLimit: slack.filter((s) => s === 0).length,
    sequencesWithAFloor: slack.length,
    /** Settled points where pods were held by partition or pause (then checked until the spec lets them go). */
    partitionOrPauseHolds: sum((o) => o.stats.protections),
    rssMiB: Math.round(process.memoryUsage().rss / 1048576),
  };
  console.log(JSON.stringify(results, null, 2));
  for (const f of summary.failures.slice(0, int('failures', values.failures))) console.log(`\n${describeFailure(seed, f, replay(f.index))}`);
  const file = await writeResults('cloneset-property', { ...results, failures: summary.failures.map((f) => ({ index: f.index, sequence: f.sequence, violations: f.outcome.violations })) });
  console.log(`results written to ${file}`);
  if (summary.failures.length > 0) console.log(`seed ${seed}: ${summary.failures.length} sequences failed`);
  return summary.failures.length > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(2);
});
