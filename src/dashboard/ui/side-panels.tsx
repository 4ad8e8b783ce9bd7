/** SidecarSets (matched/updated), jobs, and the event stream, newest first. */
import type { EventRow, JobRow, SidecarSetRow } from '../summaries.js';
import type { OtherRow } from '../other-kinds.js';

export function SidecarSets({ rows }: { rows: SidecarSetRow[] }) {
  if (rows.length === 0) return <p class="empty">No SidecarSets.</p>;
  return (
    <table><thead><tr><th>SidecarSet</th><th>Matched</th><th>Updated</th><th>Ready</th></tr></thead>
      <tbody>{rows.map((s) => <tr key={s.name} data-sidecarset={s.name}><td>{s.name}</td><td>{s.matched}</td><td>{s.updated}</td><td>{s.ready}</td></tr>)}</tbody></table>
  );
}

export function Jobs({ rows }: { rows: JobRow[] }) {
  if (rows.length === 0) return <p class="empty">No jobs.</p>;
  return (
    <table><thead><tr><th>Job</th><th>Phase</th><th>Active</th><th>Succeeded</th><th>Failed</th></tr></thead>
      <tbody>{rows.map((j) => (
        <tr key={`${j.kind}/${j.ns}/${j.name}`}><td><span class="kind">{j.kind}</span> {j.ns}/{j.name}</td><td>{j.phase}</td><td>{j.active}</td><td>{j.succeeded}{j.desired ? `/${j.desired}` : ''}</td><td>{j.failed}</td></tr>
      ))}</tbody></table>
  );
}

/** UnitedDeployments, WorkloadSpreads, cron jobs, ImagePullJobs, PUBs: labelled fields, subsets below. */
export function OtherKinds({ rows }: { rows: OtherRow[] }) {
  if (rows.length === 0) return <p class="empty">None.</p>;
  return (
    <table><thead><tr><th>Object</th><th>Status</th></tr></thead>
      <tbody>{rows.map((r) => (
        <tr key={`${r.kind}/${r.ns}/${r.name}`} data-other={`${r.kind}/${r.ns}/${r.name}`}>
          <td><span class="kind">{r.kind}</span> {r.ns}/{r.name}</td>
          <td>{r.fields.map(([k, v]) => <span key={k} class="field" data-field={k}><span class="muted">{k}</span> <b>{v}</b></span>)}
            {r.subsets.map(([k, v]) => <div key={k} class="subset" data-subset={k}><span class="muted">{k}:</span> {v}</div>)}</td>
        </tr>
      ))}</tbody></table>
  );
}

export function Events({ rows }: { rows: EventRow[] }) {
  const newest = rows.slice().sort((a, b) => b.time.localeCompare(a.time)).slice(0, 60);
  if (newest.length === 0) return <p class="empty">No events yet.</p>;
  return (
    <ul class="events">{newest.map((e) => (
      <li key={e.uid} data-event={e.uid} class={e.type === 'Warning' ? 'warning' : ''}>
        <span class="time">{e.time.slice(11, 19)}</span> <b>{e.reason}</b> <span class="obj">{e.object}</span>{e.count > 1 ? <span class="muted"> ×{e.count}</span> : null}
        <div class="msg">{e.message}</div>
      </li>
    ))}</ul>
  );
}
