/**
 * `npm run bench:dashboard` (docs/design/dashboard.md §9): `kruise dashboard` (a child process, so its
 * CPU and RSS are its own) against an in-process API server holding 5,000 running pods on 20 nodes,
 * watched by headless Chromium. A 1,000-pod in-place rollout is then played through the API: per
 * pod a revision label, a not-ready status (restart 1), then a ready status, in waves of 50 every
 * 250 ms. Measured: the backend's CPU (share of one core) and RSS idle and during the rollout, the
 * bytes per second of the event stream, and the time from each status write to the pod cell's DOM
 * change (p50/p99). Goals: p99 < 500 ms, backend < 10 % of a core.
 */
import { spawn } from 'node:child_process';
import { stopChild } from '../testing/process.js';
import { readFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pod } from '../api/core/index.js';
import type { KObject } from '../api/meta.js';
import { MutatingWebhookConfigurations, Nodes, Pods, ValidatingWebhookConfigurations } from '../api/resource-type.js';
import { CloneSets } from '../api/kruise/resource-types.js';
import { startControlPlane } from '../apiserver/server.js';
import { buildKubeconfig, writeKubeconfig } from '../apiserver/auth/kubeconfig.js';
import { createInProcessClient } from '../client/index.js';
import { installKruise } from '../install/install.js';
import { chromiumAvailability, launchChromium } from '../testing/browser.js';
import { percentile, rate, rssMiB, writeResults } from './stats.js';

const PODS = Number(process.env.DASHBOARD_BENCH_PODS ?? 5000);
const ROLLOUT = Number(process.env.DASHBOARD_BENCH_ROLLOUT ?? 1000);
const NODES = 20;
const WAVE = 50;
const WAVE_MS = 250;
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/kruise.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 1/100 s
}

const readyStatus = (ready: boolean, restarts: number) => ({
  phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }, { type: 'ContainersReady', status: ready ? 'True' : 'False' }],
  containerStatuses: [{ name: 'main', image: 'nginx:1.25', imageID: '', ready, restartCount: restarts, started: ready, state: ready ? { running: {} } : { waiting: { reason: 'ContainerCreating' } } }],
});

/** A CRD serves once established, shortly after it is applied. */
async function retryUntilServed<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100);
    }
  }
}

async function main(): Promise<void> {
  const browserCheck = chromiumAvailability();
  if (!browserCheck.available) throw new Error(browserCheck.reason);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-bench-dashboard-'));
  const plane = await startControlPlane({ dataDir: dir, port: 0, inMemory: true });
  const client = createInProcessClient(plane.handler, undefined, 'bench');
  await installKruise(client);
  // The CRDs only: no manager runs here, so its webhooks would refuse every CloneSet write.
  await client.delete(MutatingWebhookConfigurations, undefined, 'kruise-mutating-webhook-configuration');
  await client.delete(ValidatingWebhookConfigurations, undefined, 'kruise-validating-webhook-configuration');
  const kubeconfig = path.join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfig, buildKubeconfig({ server: plane.url, caPem: plane.pki.ca.certPem, user: 'admin', token: plane.pki.adminToken, clusterName: 'bench' }));
  for (let n = 0; n < NODES; n++) {
    await client.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${n}` }, status: { conditions: [{ type: 'Ready', status: 'True' }] } } as never);
  }
  const cs = await retryUntilServed(() => client.create<KObject>(CloneSets, {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'roll', namespace: 'default' },
    spec: { replicas: ROLLOUT, selector: { matchLabels: { app: 'roll' } }, updateStrategy: { type: 'InPlaceIfPossible' }, template: { metadata: { labels: { app: 'roll' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } } },
  } as KObject));
  const name = (i: number) => (i < ROLLOUT ? `roll-${i}` : `other-${i}`);
  const started = Date.now();
  await rate(PODS, 32, async (i) => {
    const owned = i < ROLLOUT;
    const pod = await client.create<Pod>(Pods, {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name: name(i), namespace: 'default', labels: { app: owned ? 'roll' : 'other', 'controller-revision-hash': 'roll-old' },
        ownerReferences: owned ? [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'roll', uid: cs.metadata.uid!, controller: true }] : undefined,
      },
      spec: { nodeName: `node-${i % NODES}`, containers: [{ name: 'main', image: 'nginx:1.25' }] },
    } as Pod);
    await client.updateStatus(Pods, { ...pod, status: readyStatus(true, 0) } as never);
  });
  console.log(`${PODS} pods written in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const child = spawn(process.execPath, [bin, 'dashboard', '--kubeconfig', kubeconfig, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, KRUISE_LOG_LEVEL: 'warn' } });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString(); });
  while (!/login key (\S+)/.test(out)) await sleep(100);
  const url = /at (http\S+)/.exec(out)![1]!;
  const key = /login key (\S+)/.exec(out)![1]!;
  const browser = await launchChromium(browserCheck.executablePath);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    let streamBytes = 0;
    cdp.on('Network.eventSourceMessageReceived', (e: { data: string }) => { streamBytes += Buffer.byteLength(e.data); });
    await page.goto(url);
    await page.fill('input[name=token]', key);
    await Promise.all([page.waitForURL(url), page.click('button[type=submit]')]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-pod]').length >= n, PODS, { timeout: 120_000 });
    // The page records its paint time a frame after painting: wait for it rather than read too early.
    await page.waitForFunction(() => (window as unknown as { dashboardRendered?: unknown }).dashboardRendered !== undefined, undefined, { timeout: 30_000 });
    const firstPaint = await page.evaluate(() => (window as unknown as { dashboardRendered?: { snapshotToPaintMs: number } }).dashboardRendered?.snapshotToPaintMs ?? NaN);
    // Record the first time each pod cell shows each state.
    await page.evaluate(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver((records) => {
        const now = Date.now();
        for (const r of records) {
          const el = r.target as Element;
          const k = `${el.getAttribute('data-pod')}#${el.getAttribute('data-state')}`;
          seen[k] ??= now;
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state'], childList: false });
    });

    const idleCpu0 = await cpuSeconds(child.pid!);
    const idleT0 = Date.now();
    await sleep(5000);
    const idle = { cpu: (await cpuSeconds(child.pid!)) - idleCpu0, seconds: (Date.now() - idleT0) / 1000 };
    const idleRss = await rssMiB(child.pid!);

    const written: { key: string; t: number }[] = [];
    const bytes0 = streamBytes;
    const cpu0 = await cpuSeconds(child.pid!);
    const t0 = Date.now();
    let peakRss = idleRss;
    for (let w = 0; w * WAVE < ROLLOUT; w++) {
      const waveStart = Date.now();
      const idx = Array.from({ length: Math.min(WAVE, ROLLOUT - w * WAVE) }, (_, j) => w * WAVE + j);
      await Promise.all(idx.map((i) => client.patch(Pods, 'default', name(i), 'merge', { metadata: { labels: { 'controller-revision-hash': 'roll-new' }, annotations: { 'apps.kruise.io/inplace-update-state': '{}' } } })));
      await Promise.all(idx.map(async (i) => {
        const pod = await client.get<Pod>(Pods, 'default', name(i));
        const t = Date.now();
        await client.updateStatus(Pods, { ...pod, status: readyStatus(false, 1) } as never);
        written.push({ key: `default/${name(i)}#running|roll-new|1`, t });
      }));
      await sleep(WAVE_MS / 2);
      await Promise.all(idx.map(async (i) => {
        const pod = await client.get<Pod>(Pods, 'default', name(i));
        const t = Date.now();
        await client.updateStatus(Pods, { ...pod, status: readyStatus(true, 1) } as never);
        written.push({ key: `default/${name(i)}#ready|roll-new|1`, t });
      }));
      const done = (w + 1) * WAVE;
      const current = await client.get(CloneSets, 'default', 'roll');
      await client.updateStatus(CloneSets, { ...current, status: { replicas: ROLLOUT, readyReplicas: ROLLOUT, availableReplicas: ROLLOUT, updatedReplicas: Math.min(done, ROLLOUT), updatedReadyReplicas: Math.min(done, ROLLOUT), currentRevision: 'roll-old', updateRevision: 'roll-new', observedGeneration: 1 } } as never);
      peakRss = Math.max(peakRss, await rssMiB(child.pid!));
      await sleep(Math.max(0, WAVE_MS - (Date.now() - waveStart)));
    }
    await sleep(1500); // the last wave's updates reach the page
    const seconds = (Date.now() - t0) / 1000;
    const cpu = (await cpuSeconds(child.pid!)) - cpu0;
    const seen = await page.evaluate(() => (window as unknown as { seen: Record<string, number> }).seen);
    // A state the page coalesced away (a newer one arrived in the same push or frame) counts as
    // shown when the newer state appeared: the page shows the latest state, not every step.
    const pod = (key: string) => key.slice(0, key.indexOf('#'));
    let coalesced = 0;
    const latencies = written.map((w, i) => {
      let shown = seen[w.key];
      if (shown === undefined) {
        const later = written.slice(i + 1).filter((x) => pod(x.key) === pod(w.key)).map((x) => seen[x.key]).filter((t): t is number => t !== undefined);
        if (later.length > 0) { coalesced++; shown = Math.min(...later); }
      }
      return shown === undefined ? Infinity : shown - w.t;
    }).sort((a, b) => a - b);
    const missed = latencies.filter((l) => l === Infinity).length;
    const results = {
      pods: PODS, rolloutPods: ROLLOUT, nodes: NODES, statusWrites: written.length, rolloutSeconds: round(seconds),
      firstPaintMs: round(firstPaint, 0),
      idleCpuPercentOfCore: round((100 * idle.cpu) / idle.seconds), idleRssMiB: idleRss,
      rolloutCpuPercentOfCore: round((100 * cpu) / seconds), peakRssMiB: peakRss,
      streamKiBPerSecond: round((streamBytes - bytes0) / 1024 / seconds), streamKiBTotal: round((streamBytes - bytes0) / 1024),
      updateToDomP50ms: percentile(latencies, 50), updateToDomP99ms: percentile(latencies, 99), missedUpdates: missed, coalescedSteps: coalesced,
      goals: `p99 < 500 ms: ${percentile(latencies, 99) < 500 ? 'met' : 'MISSED'}; backend < 10% of a core: ${(100 * cpu) / seconds < 10 ? 'met' : 'MISSED'}`,
    };
    console.table(Object.entries(results).map(([measure, value]) => ({ measure, value })));
    console.log(`results: ${await writeResults('dashboard', results)}`);
  } finally {
    await browser.close();
    await stopChild(child);
    await plane.stop();
  }
}

await main();
