/**
 * Side-by-side latency sampling for `bench:admission`: the two sides of a comparison run in
 * alternating batches (A B B A ...), so machine load and store growth reach both alike.
 */
import { percentile } from './stats.js';

/** One request of a side; names are the side's business (a counter in its closure). */
export type Op = () => Promise<void>;

export interface Summary { n: number; p50: number; p99: number; mean: number }
export interface Comparison { addedP50Ms: number; addedP99Ms: number; ratioP50: number; ratioP99: number }
export interface Throughput extends Summary { perSec: number }

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const r2 = (x: number) => Math.round(x * 100) / 100;

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  return { n: sorted.length, p50: r3(percentile(sorted, 50)), p99: r3(percentile(sorted, 99)), mean: r3(mean) };
}

export function compare(base: Summary, hooked: Summary): Comparison {
  return {
    addedP50Ms: r3(hooked.p50 - base.p50), addedP99Ms: r3(hooked.p99 - base.p99),
    ratioP50: r2(hooked.p50 / base.p50), ratioP99: r2(hooked.p99 / base.p99),
  };
}

async function timed(op: Op, into: number[]): Promise<void> {
  const t = performance.now();
  await op();
  into.push(performance.now() - t);
}

/** `n` sequential requests per side in batches of `batch`, the order flipping every round. */
export async function sequentialPair(base: Op, hooked: Op, n: number, batch = 5): Promise<[number[], number[]]> {
  const samples: [number[], number[]] = [[], []];
  const ops = [base, hooked];
  for (let round = 0; samples[1].length < n; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const side of order) {
      const count = Math.min(batch, n - samples[side].length);
      for (let i = 0; i < count; i++) await timed(ops[side], samples[side]);
    }
  }
  return samples;
}

/** `n` requests per side from `clients` concurrent workers, in `rounds` alternating chunks. */
export async function concurrentPair(base: Op, hooked: Op, n: number, clients: number, rounds = 6): Promise<[Throughput, Throughput]> {
  const samples: [number[], number[]] = [[], []];
  const seconds = [0, 0];
  const ops = [base, hooked];
  const chunk = Math.ceil(n / rounds);
  for (let round = 0; samples[1].length < n; round++) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      let left = Math.min(chunk, n - samples[side].length);
      const started = performance.now();
      await Promise.all(Array.from({ length: clients }, async () => {
        while (left > 0) {
          left--;
          await timed(ops[side], samples[side]);
        }
      }));
      seconds[side] += (performance.now() - started) / 1000;
    }
  }
  return [0, 1].map((side) => ({ ...summarize(samples[side]), perSec: Math.round(samples[side].length / seconds[side]) })) as [Throughput, Throughput];
}
