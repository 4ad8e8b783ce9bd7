/**
 * Driver of the ADS property test: random sequences (template change, partition change, pause,
 * maxUnavailable/maxSurge change, manager kill and restart), each on its own DaemonSet in its own
 * namespace, observed by a pod watch and a DaemonSet watch. Checked on every event once the
 * DaemonSet first settled:
 *  - at most one live pod per node (two with surge);
 *  - nodes without a Ready live pod never exceed maxUnavailable of any spec the controller may
 *    still act on (from the newest it observed to the newest written);
 *  - no pod is deleted twice; while every such spec is paused no node loses its only pod, no pod
 *    changes revision in place and no second pod joins a node;
 * and at the end: the DaemonSet settles with one Ready pod per node and, unless paused, at least
 * `4 - partition` nodes updated. When the final template was never used before, the updated nodes
 * are the largest names and number at most `4 - p` for the smallest partition p since it was set.
 */
import fc from 'fast-check';
import { AdvancedDaemonSets } from '../../api/kruise/resource-types.js';
import type { DaemonSet } from '../../api/kruise/workloads/daemonset.js';
import { Pods } from '../../api/resource-type.js';
import type { Client, WatchHandle } from '../../client/client.js';
import { allNodes, createNamespace, isPodReady, nodeOf, revisionOf, type Pod } from './fixtures.js';

export const templates = [
  { image: 'nginx:1.25-alpine', env: 'a' }, { image: 'nginx:1.26-alpine', env: 'a' },
  { image: 'nginx:1.27-alpine', env: 'a' }, { image: 'nginx:1.25-alpine', env: 'b' },
];

export type Kind = 'Standard' | 'InPlaceIfPossible' | 'Surge';
export interface Knobs { budget: number | string; partition: number | string; paused: boolean; template: number }
export type Step =
  | { t: 'template'; i: number } | { t: 'partition'; p: number | string } | { t: 'paused'; v: boolean }
  | { t: 'budget'; v: number | string } | { t: 'restart' };
export interface Sequence { kind: Kind; knobs: Knobs; steps: { step: Step; waitMs: number }[] }

const budget = fc.constantFrom<number | string>(1, 2, '25%', '50%');
const partition = fc.constantFrom<number | string>(0, 0, 1, 2, 3, '50%');
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('template' as const), i: fc.integer({ min: 0, max: templates.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('partition' as const), p: partition }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('paused' as const), v: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('budget' as const), v: budget }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('restart' as const) }) },
);
export const sequenceArb: fc.Arbitrary<Sequence> = fc.record({
  kind: fc.constantFrom<Kind>('Standard', 'InPlaceIfPossible', 'Surge'),
  knobs: fc.record({ budget, partition, paused: fc.constant(false), template: fc.integer({ min: 0, max: templates.length - 1 }) }),
  steps: fc.array(fc.record({ step, waitMs: fc.integer({ min: 0, max: 1_500 }) }), { minLength: 2, maxLength: 5 }),
});

/** The node a pod is pinned to (before the scheduler binds it). */
function targetOf(pod: Pod): string | undefined {
  const terms = (pod.spec.affinity as { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: { matchFields?: { values?: string[] }[] }[] } } } | undefined)
    ?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return nodeOf(pod) ?? terms?.[0]?.matchFields?.[0]?.values?.[0];
}

export const scaled = (v: number | string, total: number, up: boolean) =>
  typeof v === 'number' ? v : (up ? Math.ceil : Math.floor)((total * Number(v.slice(0, -1))) / 100);

export function daemonSetOf(ns: string, name: string, kind: Kind, k: Knobs): DaemonSet {
  const t = templates[k.template]!;
  const rollingUpdate = kind === 'Surge'
    ? { maxSurge: k.budget, maxUnavailable: 0 }
    : { rollingUpdateType: kind, maxUnavailable: k.budget, maxSurge: 0 };
  return {
    apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name, namespace: ns },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { ...rollingUpdate, partition: k.partition, paused: k.paused } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'agent', image: t.image, env: [{ name: 'E', value: t.env }] }] } },
    },
  } as DaemonSet;
}

interface SpecView { unavailable: number; paused: boolean; generation: number }

/** One DaemonSet under observation. */
export class Watched {
  readonly pods = new Map<string, Pod>();
  readonly violations: string[] = [];
  private readonly deleteCalls = new Map<string, number>();
  private specs: SpecView[] = [];
  private observedGeneration = 0;
  armed = false;
  private handles: WatchHandle[] = [];

  constructor(readonly ns: string, readonly kind: Kind) {}

  fail(message: string): void {
    if (this.violations.length < 5) this.violations.push(message);
  }

  live(): Pod[] {
    return [...this.pods.values()].filter((p) => !p.metadata.deletionTimestamp);
  }

  pushSpec(k: Knobs): SpecView {
    const view = { unavailable: this.kind === 'Surge' ? 0 : scaled(k.budget, 4, true), paused: k.paused, generation: Infinity };
    this.specs.push(view);
    return view;
  }

  private window(): SpecView[] {
    const latest = this.specs[this.specs.length - 1];
    if (latest && this.specs.length > 1 && this.observedGeneration >= latest.generation) this.specs = [latest];
    return this.specs;
  }

  /** The controller asked to delete `name`. */
  onDelete(name: string): void {
    const n = (this.deleteCalls.get(name) ?? 0) + 1;
    this.deleteCalls.set(name, n);
    if (n > 1) this.fail(`pod ${name} deleted ${n} times`);
    const pod = this.pods.get(name);
    const others = this.live().filter((p) => p.metadata.name !== name && nodeOf(p) === (pod && nodeOf(pod)));
    if (this.armed && this.window().every((s) => s.paused) && others.length === 0) this.fail(`pod ${name} deleted while paused`);
  }

  private pausedNow(): boolean {
    return this.armed && this.window().every((s) => s.paused);
  }

  /** A watch event: revision changes in place and pods joining an occupied node are rollout steps. */
  private onPodEvent(pod: Pod, type: string): void {
    const before = this.pods.get(pod.metadata.name!);
    if (type === 'DELETED') {
      this.pods.delete(pod.metadata.name!);
      return;
    }
    if (this.pausedNow() && before && revisionOf(before) !== revisionOf(pod)) this.fail(`pod ${pod.metadata.name} changed revision while paused`);
    const occupied = this.live().some((p) => p.metadata.name !== pod.metadata.name && nodeOf(p) === targetOf(pod));
    if (this.pausedNow() && !before && occupied) this.fail(`pod ${pod.metadata.name} joined an occupied node while paused`);
    this.pods.set(pod.metadata.name!, pod);
  }

  check(): void {
    if (!this.armed) return;
    const live = this.live();
    const perNode = new Map<string, number>();
    for (const p of live) perNode.set(nodeOf(p) ?? '', (perNode.get(nodeOf(p) ?? '') ?? 0) + 1);
    const most = Math.max(0, ...perNode.values());
    if (most > (this.kind === 'Surge' ? 2 : 1)) this.fail(`${most} live pods on one node`);
    const ready = new Set(live.filter(isPodReady).map(nodeOf));
    const down = allNodes.filter((n) => !ready.has(n)).length;
    const allowed = Math.max(...this.window().map((s) => s.unavailable));
    if (down > allowed) this.fail(`${down} nodes without a Ready pod, maxUnavailable ${allowed}`);
  }

  async watch(client: Client): Promise<void> {
    const list = await client.list<Pod>(Pods, { namespace: this.ns });
    for (const p of list.items) this.pods.set(p.metadata.name!, p);
    this.handles.push(client.watch<Pod>(Pods, { namespace: this.ns, resourceVersion: list.metadata.resourceVersion }, {
      onEvent: (e) => {
        if (e.type !== 'ADDED' && e.type !== 'MODIFIED' && e.type !== 'DELETED') return;
        this.onPodEvent(e.object as Pod, e.type);
        this.check();
      },
      onClose: (err) => { if (err) this.fail(`pod watch closed: ${String(err)}`); },
    }));
    this.handles.push(client.watch<DaemonSet>(AdvancedDaemonSets, { namespace: this.ns }, {
      onEvent: (e) => {
        const ds = e.object as DaemonSet;
        if (e.type === 'ADDED' || e.type === 'MODIFIED') this.observedGeneration = Math.max(this.observedGeneration, ds.status?.observedGeneration ?? 0);
      },
      onClose: (err) => { if (err) this.fail(`daemonset watch closed: ${String(err)}`); },
    }));
  }

  stop(): void {
    for (const h of this.handles) h.stop();
  }
}

/** Settled: status caught up, one Ready pod per node, and (unless paused) at least 4 - partition updated. */
export async function settledState(client: Client, w: Watched, k: Knobs): Promise<string | undefined> {
  const ds = await client.get<DaemonSet>(AdvancedDaemonSets, w.ns, 'ads');
  const s = ds.status;
  if (!s || s.observedGeneration !== ds.metadata.generation) return 'status behind';
  if (s.desiredNumberScheduled !== 4 || s.currentNumberScheduled !== 4 || s.numberAvailable !== 4 || s.numberMisscheduled !== 0) return `status ${JSON.stringify(s)}`;
  const live = w.live();
  if (live.length !== 4 || new Set(live.map(nodeOf)).size !== 4 || !live.every(isPodReady)) return `${live.length} live pods`;
  const partition = scaled(k.partition, 4, false);
  const updated = live.filter((p) => revisionOf(p) === s.updateRevision).length;
  if (s.updatedNumberScheduled !== updated) return `updatedNumberScheduled ${s.updatedNumberScheduled}, pods ${updated}`;
  if (!k.paused && updated < 4 - partition) return `updated ${updated} < ${4 - partition}`;
  return undefined;
}

export { createNamespace };
