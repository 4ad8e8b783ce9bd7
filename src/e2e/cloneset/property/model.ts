/**
 * What the CloneSet property sequences drive: the spec knobs and their numbers (docs/design/cloneset.md §5,
 * written from the spec, not taken from the controller), the pod predicates the checks use, and
 * the random step sequences (fast-check, a pure function of the seed) with each step's merge patch.
 */
import fc from 'fast-check';
import type { CloneSet } from '../../../api/kruise/workloads/cloneset.js';
import { ControllerRevisionHashLabel, InPlaceUpdateReadyCondition, LifecycleStateLabel, SpecifiedDeleteLabel } from '../../../api/kruise/workloads/labels.js';
import type { Pod } from '../../../api/core/index.js';

export type { Pod };
export const ns = 'default';

/** Template variants: an image change can go in place, an env change cannot. */
export const templates = [
  { image: 'nginx:1.25-alpine', foo: 'a' }, { image: 'nginx:1.26-alpine', foo: 'a' },
  { image: 'nginx:1.27-alpine', foo: 'a' }, { image: 'nginx:1.25-alpine', foo: 'b' },
];

export interface Knobs {
  replicas: number;
  policy: 'ReCreate' | 'InPlaceIfPossible';
  maxUnavailable: number | string;
  maxSurge: number | string;
  partition: number | string;
  paused: boolean;
  template: number;
}

export interface SpecView {
  R: number; P: number; S: number; U: number; paused: boolean; key: string;
  /** metadata.generation after the write (NaN until the write returns). */
  generation: number;
}

const keyOf = (t: { image: string; foo: string }) => `${t.image}|${t.foo}`;
/** Which template a pod runs, whatever its revision label says. */
export const podKeyOf = (pod: Pod): string => {
  const c = pod.spec.containers[0];
  return `${c?.image}|${c?.env?.find((e) => e.name === 'FOO')?.value}`;
};

function scaled(v: number | string, total: number, up: boolean): number {
  if (typeof v === 'number') return v;
  const x = (total * Number(v.slice(0, -1))) / 100;
  return up ? Math.ceil(x - 1e-9) : Math.floor(x + 1e-9);
}

/** docs/design/cloneset.md §5, written from the spec (not from the controller's code). */
export function specView(k: Knobs): SpecView {
  const R = k.replicas;
  let P = scaled(k.partition, R, true);
  if (typeof k.partition === 'string' && k.partition !== '100%' && R > 1 && P === R) P = R - 1;
  P = Math.min(Math.max(P, 0), R);
  const S = k.paused ? 0 : scaled(k.maxSurge, R, true);
  const U = scaled(k.maxUnavailable, R, S === 0);
  return { R, P, S, U, paused: k.paused, key: keyOf(templates[k.template]!), generation: NaN };
}

export function cloneSetOf(name: string, k: Knobs): CloneSet {
  const t = templates[k.template]!;
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name, namespace: ns },
    spec: {
      replicas: k.replicas, selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: {
        podUpdatePolicy: k.policy, maxUnavailable: k.maxUnavailable, maxSurge: k.maxSurge, partition: k.partition, paused: k.paused,
      } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: t.image, env: [{ name: 'FOO', value: t.foo }] }] } },
    },
  } as CloneSet;
}

// ---- pod predicates (docs/design/cloneset.md §5 "available") ----

const condition = (pod: Pod, type: string) => pod.status?.conditions?.find((c) => c.type === type);
export const isTerminating = (pod: Pod): boolean => !!pod.metadata.deletionTimestamp;
export const isLabelledForDelete = (pod: Pod | undefined): boolean => pod?.metadata.labels?.[SpecifiedDeleteLabel] !== undefined;
export const revisionOf = (pod: Pod): string | undefined => pod.metadata.labels?.[ControllerRevisionHashLabel];
export function isAvailable(pod: Pod): boolean {
  const state = pod.metadata.labels?.[LifecycleStateLabel];
  if ((state && state !== 'Normal') || pod.status?.phase !== 'Running' || condition(pod, 'Ready')?.status !== 'True') return false;
  const inPlace = condition(pod, InPlaceUpdateReadyCondition);
  return !inPlace || inPlace.status === 'True';
}

// ---- step sequences ----

export type Wait = 'settle' | number;
export type Step =
  | { kind: 'scale'; replicas: number; wait: Wait }
  | { kind: 'template'; shift: number; wait: Wait }
  | { kind: 'partition'; partition: number | string; wait: Wait }
  | { kind: 'pause'; paused: boolean; wait: Wait }
  | { kind: 'flap'; pod: number; downMs: number; wait: Wait }
  | { kind: 'restart'; wait: Wait }
  /** Self-tests only: the user relabels a pod left on an old revision (as if the controller moved it). */
  | { kind: 'tamper'; wait: Wait };
export interface Sequence {
  start: Knobs;
  steps: Step[];
}

const waitArb: fc.Arbitrary<Wait> = fc.oneof({ weight: 3, arbitrary: fc.constant('settle' as const) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 400 }) });
const partitionArb = fc.oneof(fc.constantFrom(0, 0, 1, 2, 3), fc.constantFrom('0%', '40%', '50%', '100%'));
/** maxUnavailable/maxSurge pairs the webhook accepts for any replicas > 0. */
const budgetArb = fc.constantFrom<[number | string, number | string]>([1, 0], [2, 0], ['20%', 0], ['50%', 0], [0, 1], [1, 1], [0, '50%'], ['50%', 2]);

export const sequenceArb: fc.Arbitrary<Sequence> = fc.record({
  start: fc.record({
    replicas: fc.integer({ min: 1, max: 4 }), policy: fc.constantFrom('ReCreate' as const, 'InPlaceIfPossible' as const),
    budget: budgetArb, partition: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: partitionArb }),
    template: fc.constant(0),
  }).map(({ budget, ...k }) => ({ ...k, maxUnavailable: budget[0], maxSurge: budget[1], paused: false })),
  steps: fc.array(fc.oneof(
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('scale' as const), replicas: fc.integer({ min: 0, max: 4 }), wait: waitArb }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('template' as const), shift: fc.integer({ min: 1, max: templates.length - 1 }), wait: waitArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('partition' as const), partition: partitionArb, wait: waitArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), paused: fc.boolean(), wait: waitArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('flap' as const), pod: fc.nat(4), downMs: fc.integer({ min: 50, max: 1_500 }), wait: waitArb }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), wait: waitArb }) },
  ), { minLength: 3, maxLength: 5 }),
});

/** The first `count` sequences of `seed`; a longer list starts with the same ones (so `--only i` replays). */
export function generate(seed: number, count: number): Sequence[] {
  return fc.sample(sequenceArb, { seed, numRuns: count });
}

/** The merge patch for a spec step; `k` is updated to match. */
export function patchFor(step: Step, k: Knobs): Record<string, unknown> {
  switch (step.kind) {
    case 'scale': k.replicas = step.replicas; return { spec: { replicas: step.replicas } };
    case 'partition': k.partition = step.partition; return { spec: { updateStrategy: { rollingUpdate: { partition: step.partition } } } };
    case 'pause': k.paused = step.paused; return { spec: { updateStrategy: { rollingUpdate: { paused: step.paused } } } };
    default: {
      k.template = (k.template + (step.kind === 'template' ? step.shift : 0)) % templates.length;
      const t = templates[k.template]!;
      return { spec: { template: { spec: { containers: [{ name: 'web', image: t.image, env: [{ name: 'FOO', value: t.foo }] }] } } } };
    }
  }
}
