/**
 * The page: header with the namespace filter, the workloads with their rollout progress, the
 * selected workload's timeline and pods, the pods-per-node grid, and side panels.
 */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PodRow, WorkloadRow } from '../summaries.js';
import { connect, type Live } from './live-rows.js';
import { ownersOf, podsOf, WorkloadTable } from './workloads.js';
import { PodsGrid } from './pods-grid.js';
import { Timeline } from './timeline.js';
import { Events, Jobs, OtherKinds, SidecarSets } from './side-panels.js';
import './app.css';

declare global { interface Window { DASHBOARD_BASE: string; dashboardRendered?: { snapshotToPaintMs: number; pods: number } } }
const base = window.DASHBOARD_BASE;

function groupBy<T>(rows: Iterable<T>, key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

function App() {
  const [live, setLive] = useState<Live | undefined>();
  const [, setVersion] = useState(0);
  const [ns, setNs] = useState('');
  const [selected, setSelected] = useState<string | undefined>();
  const [notice, setNotice] = useState('');
  useEffect(() => connect(base, (l) => { setLive(l); setVersion(l.version); }), []);
  const version = live?.version ?? 0;
  const view = useMemo(() => {
    if (!live) return undefined;
    const inNs = <T extends { ns: string }>(rows: Iterable<T>) => [...rows].filter((r) => !ns || r.ns === ns);
    const pods = inNs(live.rows.pods.values());
    const byName = (a: { ns: string; name: string }, b: { ns: string; name: string }) => a.ns.localeCompare(b.ns) || a.name.localeCompare(b.name);
    return {
      pods,
      byNode: groupBy(pods.slice().sort(byName), (p: PodRow) => p.node),
      byOwner: groupBy(pods, (p: PodRow) => `${p.ns}/${p.owner}`),
      workloads: inNs(live.rows.workloads.values()).sort(byName),
      jobs: inNs(live.rows.jobs.values()).sort(byName),
      others: inNs(live.rows.others.values()).sort((a, b) => a.kind.localeCompare(b.kind) || byName(a, b)),
      events: inNs(live.rows.events.values()),
    };
  }, [version, ns]);
  useEffect(() => {
    // How long the first full picture took to paint after its data arrived (read by the tests).
    if (live && !window.dashboardRendered && live.connected) {
      requestAnimationFrame(() => setTimeout(() => { window.dashboardRendered = { snapshotToPaintMs: performance.now() - live.snapshotAt, pods: live.rows.pods.size }; }));
    }
  }, [version]);
  if (!live || !view) return <div class="loading">Connecting…</div>;
  const sel = selected ? live.rows.workloads.get(selected) : undefined;
  const act = async (w: WorkloadRow, action: string, partition?: string) => {
    const r = await fetch(`${base}api/actions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-dashboard-action': '1' }, body: JSON.stringify({ kind: w.kind, ns: w.ns, name: w.name, action, partition }) });
    setNotice(((await r.json()) as { message: string }).message);
    return r.ok;
  };
  const namespaces = [...live.rows.namespaces.keys()].sort();
  return (
    <div class="page">
      <header>
        <h1>Kruise dashboard</h1>
        <select value={ns} onChange={(e) => setNs((e.target as HTMLSelectElement).value)} data-testid="namespace">
          <option value="">All namespaces</option>{namespaces.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
        <span class="stat"><b>{live.rows.nodes.size}</b> nodes</span><span class="stat"><b>{view.pods.length}</b> pods</span><span class="stat"><b>{view.workloads.length}</b> workloads</span>
        <span class="spacer" />
        <span class={`conn ${live.connected ? 'on' : 'off'}`} data-testid="connection">{live.connected ? 'live' : 'reconnecting…'}</span>
        <span class="user" data-testid="user">{live.user}{live.actions ? '' : ' · read-only'}{live.namespaces ? ` · namespaces ${live.namespaces.join(', ')}` : ''}</span>
        <form method="post" action={`${base}logout`}><button class="link">Sign out</button></form>
      </header>
      {notice && <div class="notice" onClick={() => setNotice('')}>{notice}</div>}
      <main>
        <section class="wide"><h2>Workloads</h2>
          <WorkloadTable workloads={view.workloads} byOwner={view.byOwner} selected={selected} actions={live.actions} onSelect={(k) => setSelected(k === selected ? undefined : k)} onAction={(w, a, p) => void act(w, a, p)} />
          {sel && <Timeline w={sel} points={live.timelines.get(selected!) ?? []} pods={podsOf(sel, view.byOwner).pods} />}
        </section>
        <section class="wide"><h2>Pods by node</h2><PodsGrid nodes={[...live.rows.nodes.values()]} byNode={view.byNode} highlight={sel ? ownersOf(sel).join('\n') : undefined} /></section>
        <section><h2>SidecarSets</h2><SidecarSets rows={[...live.rows.sidecarsets.values()]} /><h2>Jobs</h2><Jobs rows={view.jobs} /></section>
        <section><h2>Events</h2><Events rows={view.events} /></section>
        <section class="wide"><h2>Other Kruise and batch objects</h2><OtherKinds rows={view.others} /></section>
      </main>
    </div>
  );
}

render(<App />, document.getElementById('app')!);
