/**
 * A workload's rollout timeline, drawn from the progress points the watch stream delivered: updated
 * and ready replicas over time, with a mark where the update revision changed or the rollout paused.
 */
import type { TimelinePoint } from '../state.js';
import type { PodRow, WorkloadRow } from '../summaries.js';
import { podState } from './pods-grid.js';

const W = 560;
const H = 140;

export function Timeline({ w, points, pods }: { w: WorkloadRow; points: TimelinePoint[]; pods: PodRow[] }) {
  const t0 = points[0]?.t ?? 0;
  const span = Math.max((points[points.length - 1]?.t ?? 0) - t0, 1000);
  const max = Math.max(1, ...points.map((p) => p.replicas));
  const x = (t: number) => 30 + ((W - 40) * (t - t0)) / span;
  const y = (v: number) => H - 20 - ((H - 34) * v) / max;
  // Steps, not slopes: a count holds until the next watch event changes it.
  const line = (f: (p: TimelinePoint) => number) => points.map((p, i) => `${i ? `H${x(p.t).toFixed(1)}V` : `M${x(p.t).toFixed(1)},`}${y(f(p)).toFixed(1)}`).join('') + `H${x(t0 + span).toFixed(1)}`;
  const marks = points.filter((p, i) => i > 0 && (p.revision !== points[i - 1]!.revision || p.paused !== points[i - 1]!.paused));
  return (
    <div class="timeline" data-timeline={`${w.kind}/${w.ns}/${w.name}`}>
      <h3>{w.kind} {w.ns}/{w.name}: rollout timeline <span class="muted">{points.length} points over {(span / 1000).toFixed(1)} s</span></h3>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H}>
        <line x1="30" x2={W - 10} y1={y(0)} y2={y(0)} class="axis" />
        <line x1="30" x2={W - 10} y1={y(max)} y2={y(max)} class="axis faint" />
        <text x="4" y={y(max) + 4}>{max}</text><text x="4" y={y(0) + 4}>0</text>
        <text x="30" y={H - 4}>{new Date(t0).toLocaleTimeString()}</text><text x={W - 10} y={H - 4} text-anchor="end">+{(span / 1000).toFixed(1)} s</text>
        {marks.map((m) => <line key={m.t} x1={x(m.t)} x2={x(m.t)} y1="8" y2={y(0)} class={m.paused ? 'mark paused' : 'mark'} />)}
        <path d={line((p) => p.ready)} class="ready-line" />
        <path d={line((p) => p.updated)} class="updated-line" />
      </svg>
      <div class="legend"><span class="swatch updated-line" />updated <span class="swatch ready-line" />ready <span class="swatch mark" />new revision / pause</div>
      <table class="pod-list">
        <thead><tr><th>Pod</th><th>Node</th><th>State</th><th>Revision</th><th>Restarts</th><th>Update</th></tr></thead>
        <tbody>
          {pods.map((p) => (
            <tr key={p.uid} data-pod-row={p.name}>
              <td>{p.name}</td><td>{p.node || '–'}</td><td><span class={`pod ${podState(p)}`} /> {podState(p)}</td>
              <td class="rev">{p.revision.replace(/^.*-/, '') || '–'}</td><td>{p.restarts}</td><td>{p.inPlace ? 'in place' : '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
