/**
 * Pods per node: one small cell per pod coloured by phase and readiness; a ring marks a pod updated
 * in place, a number its container restarts. Cells are memoised by row, so a delta repaints only
 * the pods it changed. `highlight`: the selected workload's pod owners (`ns/Kind/name`), one a line.
 */
import { memo } from 'preact/compat';
import { useMemo } from 'preact/hooks';
import type { NodeRow, PodRow } from '../summaries.js';

export function podState(p: PodRow): string {
  if (p.deleting) return 'deleting';
  if (p.phase === 'Running') return p.ready ? 'ready' : 'running';
  return p.phase.toLowerCase();
}

const PodCell = memo(function PodCell({ p, highlight }: { p: PodRow; highlight: boolean }) {
  const state = podState(p);
  return (
    <span
      class={`pod ${state}${p.inPlace ? ' inplace' : ''}${highlight ? ' hl' : ''}`}
      data-pod={`${p.ns}/${p.name}`} data-state={`${state}|${p.revision}|${p.restarts}`}
      title={`${p.ns}/${p.name}\n${p.phase}${p.ready ? ', ready' : ''}${p.inPlace ? ', updated in place' : ''}\nrevision ${p.revision || '–'}, restarts ${p.restarts}`}
    >{p.restarts > 0 ? <i>{p.restarts > 9 ? '9+' : p.restarts}</i> : null}</span>
  );
});

const NodeBox = memo(function NodeBox({ name, node, pods, highlight }: { name: string; node?: NodeRow; pods: PodRow[]; highlight?: string }) {
  const owners = useMemo(() => new Set(highlight?.split('\n') ?? []), [highlight]);
  const ready = pods.filter((p) => p.ready).length;
  return (
    // Boxes with more pods grow wider, so a crowded node does not become a tall column.
    <div class="node" data-node={name} style={{ flexGrow: Math.max(1, Math.round(pods.length / 40)) }}>
      <div class="node-head"><span class={`dot ${node?.ready === false ? 'bad' : node ? 'ok' : 'none'}`} />{name || 'unscheduled'}<span class="muted">{node?.zone ?? ''} · {ready}/{pods.length} ready</span></div>
      <div class="cells">{pods.map((p) => <PodCell key={p.uid} p={p} highlight={owners.has(`${p.ns}/${p.owner}`)} />)}</div>
    </div>
  );
});

export function PodsGrid({ nodes, byNode, highlight }: { nodes: NodeRow[]; byNode: Map<string, PodRow[]>; highlight?: string }) {
  const names = [...new Set([...nodes.map((n) => n.name), ...byNode.keys()])].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  const nodeOf = new Map(nodes.map((n) => [n.name, n]));
  return (
    <div class="grid">
      {names.map((n) => <NodeBox key={n} name={n} node={nodeOf.get(n)} pods={byNode.get(n) ?? noPods} highlight={highlight} />)}
      <div class="legend">
        {['ready', 'running', 'pending', 'succeeded', 'failed', 'deleting'].map((s) => <span key={s}><span class={`pod ${s}`} />{s === 'running' ? 'running, not ready' : s}</span>)}
        <span><span class="pod ready inplace" />updated in place</span><span><span class="pod ready"><i>2</i></span>restarts</span>
      </div>
    </div>
  );
}

const noPods: PodRow[] = [];
