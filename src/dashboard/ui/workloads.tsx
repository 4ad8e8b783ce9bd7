/** The workloads table: rollout progress per Kruise and built-in workload, and the optional actions. */
import type { PodRow, WorkloadRow } from '../summaries.js';

export interface WorkloadPods { inPlace: number; recreated: number; pods: PodRow[] }

/** Pods of a workload at its update revision, split into updated in place and created anew. */
export function podsOf(w: WorkloadRow, byOwner: Map<string, PodRow[]>): WorkloadPods {
  const ownerKind = w.kind.replace(/^Advanced/, '');
  const pods = (byOwner.get(`${w.ns}/${ownerKind}/${w.name}`) ?? []).slice().sort((a, b) => a.name.localeCompare(b.name));
  const atUpdate = w.updateRevision ? pods.filter((p) => w.updateRevision.endsWith(p.revision) && p.revision) : [];
  const inPlace = atUpdate.filter((p) => p.inPlace).length;
  return { inPlace, recreated: atUpdate.length - inPlace, pods };
}

function Progress({ w }: { w: WorkloadRow }) {
  const total = Math.max(w.replicas, 1);
  const done = w.replicas > 0 && w.updated >= w.replicas && w.ready >= w.replicas && w.observed;
  return (
    <div class="progress" title={`${w.updated} updated, ${w.ready} ready of ${w.replicas}`}>
      <div class="bar updated" style={{ width: `${(100 * Math.min(w.updated, total)) / total}%` }} />
      <div class="bar ready" style={{ width: `${(100 * Math.min(w.ready, total)) / total}%` }} />
      <span class="progress-label" data-testid="progress">{done ? 'complete' : w.paused ? 'paused' : `${w.updated}/${w.replicas} updated`}</span>
    </div>
  );
}

const short = (rev: string) => rev.replace(/^.*-/, '');

export function WorkloadTable(props: {
  workloads: WorkloadRow[]; byOwner: Map<string, PodRow[]>; selected?: string; actions: boolean;
  onSelect(key: string): void; onAction(w: WorkloadRow, action: 'pause' | 'resume' | 'partition', partition?: string): void;
}) {
  if (props.workloads.length === 0) return <p class="empty">No workloads in this view.</p>;
  return (
    <table class="workloads">
      <thead><tr><th>Workload</th><th>Rollout</th><th>Ready</th><th>Updated</th><th>Partition</th><th>In place / recreated</th><th>Revision (current → update)</th>{props.actions && <th>Actions</th>}</tr></thead>
      <tbody>
        {props.workloads.map((w) => {
          const key = `${w.kind}/${w.ns}/${w.name}`;
          const { inPlace, recreated } = podsOf(w, props.byOwner);
          const rolling = w.currentRevision && w.updateRevision && w.currentRevision !== w.updateRevision;
          return (
            <tr key={key} data-workload={key} class={key === props.selected ? 'selected' : ''} onClick={() => props.onSelect(key)}>
              <td><span class={`kind kind-${w.kind}`}>{w.kind}</span> <b>{w.name}</b> <span class="ns">{w.ns}</span><div class="strategy">{w.strategy}{w.paused ? ' · paused' : ''}</div></td>
              <td><Progress w={w} /></td>
              <td data-testid="ready">{w.ready}/{w.replicas}</td>
              <td data-testid="updated">{w.updated}</td>
              <td>{w.partition || '–'}</td>
              <td data-testid="inplace">{inPlace} / {recreated}</td>
              <td class="rev">{short(w.currentRevision) || '–'}{rolling ? <> → <b>{short(w.updateRevision)}</b></> : null}</td>
              {props.actions && (
                <td class="actions" onClick={(e) => e.stopPropagation()}>
                  <button onClick={() => props.onAction(w, w.paused ? 'resume' : 'pause')}>{w.paused ? 'Resume' : 'Pause'}</button>
                  <button onClick={() => { const v = prompt(`Partition of ${w.name}`, w.partition || '0'); if (v !== null) props.onAction(w, 'partition', v); }}>Partition…</button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
