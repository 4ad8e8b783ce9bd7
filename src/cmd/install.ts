/** `kruise crds`, `kruise install` and `kruise uninstall` (docs/design/install.md). */
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { installManifests, chartObjects } from '../install/manifests.js';
import { installKruise } from '../install/install.js';
import { kruiseWorkloadsLeft, uninstallKruise, WorkloadsLeftError } from '../install/uninstall.js';
import { defaultChartValues, mergeValues, type ChartValues } from '../install/chart/values.js';
import { createHttpClient, type Client } from '../client/index.js';
import type { KObject } from '../api/meta.js';
import { DaemonSets, Deployments } from '../api/resource-type.js';
import { progressOn, type Progress } from '../machinery/progress.js';

export function runCrds(): void {
  const crds = installManifests().filter((m) => m.kind === 'CustomResourceDefinition');
  process.stdout.write(crds.map((c) => stringify(c, { lineWidth: 0 })).join('---\n'));
}

/** The chart's defaults with each `-f` file laid over them in turn, as Helm coalesces values. */
function valuesFrom(files: string[]): ChartValues {
  return files.reduce<ChartValues>((values, file) => mergeValues(values, parse(readFileSync(file, 'utf8')) ?? {}) as ChartValues, defaultChartValues);
}

export interface InstallCommandOptions {
  kubeconfig?: string;
  values: string[];
  workloads: boolean;
  dryRun: boolean;
  output?: string;
  /** Seconds to wait for the manager Deployment and daemon DaemonSet to be available (0: no wait). */
  wait: number;
}

export async function runInstall(options: InstallCommandOptions): Promise<void> {
  const values = valuesFrom(options.values);
  if (options.dryRun) {
    // What the chart renders with these values (its pre-delete hook included, as `helm template` shows it).
    const objects = options.workloads ? chartObjects(values) : installManifests(values);
    if (options.output === 'yaml') process.stdout.write(objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n'));
    else for (const o of objects) console.log(`${o.kind!.toLowerCase()}/${o.metadata.name} (dry run)`);
    return;
  }
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-install' });
  const progress = progressOn();
  const applied = await installKruise(client, { values, workloads: options.workloads, log: (line) => progress.line(line) });
  progress.line(`kruise installed: ${applied.length} objects applied`);
  const workloads = applied.filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet');
  if (options.wait > 0 && workloads.length > 0) await waitAvailable(client, workloads, options.wait, progress);
}

export async function runUninstall(options: { kubeconfig?: string; values: string[]; check: boolean }): Promise<void> {
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-uninstall' });
  try {
    if (options.check) {
      const left = await kruiseWorkloadsLeft(client);
      if (left.length > 0) throw new WorkloadsLeftError(left);
      console.log('no Kruise workloads left: uninstall may proceed');
      return;
    }
    const removed = await uninstallKruise(client, valuesFrom(options.values), (line) => console.log(line));
    console.log(`kruise uninstalled: ${removed.length} objects deleted`);
  } catch (e) {
    if (!(e instanceof WorkloadsLeftError)) throw e;
    console.error(`kruise uninstall: ${e.message}`);
    process.exit(1);
  }
}

/** `--wait`: each workload's available pods against those it wants, as a live line, until all are. */
async function waitAvailable(client: Client, workloads: KObject[], seconds: number, progress: Progress): Promise<void> {
  const start = Date.now();
  for (const w of workloads) {
    const what = `${w.kind!.toLowerCase()} ${w.metadata.namespace}/${w.metadata.name}`;
    for (;;) {
      type Status = { replicas?: number; availableReplicas?: number; desiredNumberScheduled?: number; numberAvailable?: number; observedGeneration?: number };
      const live = await client.get<KObject & { spec?: { replicas?: number }; status?: Status }>(w.kind === 'Deployment' ? Deployments : DaemonSets, w.metadata.namespace, w.metadata.name!);
      const s = live.status ?? {};
      const [available, wanted] = w.kind === 'Deployment' ? [s.availableReplicas ?? 0, live.spec?.replicas ?? 1] : [s.numberAvailable ?? 0, s.desiredNumberScheduled ?? 0];
      const elapsed = Math.round((Date.now() - start) / 1000);
      if ((s.observedGeneration ?? 0) >= (live.metadata.generation ?? 0) && available >= wanted && (w.kind === 'Deployment' || wanted > 0)) {
        progress.line(`${what} ready: ${available}/${wanted} available (${elapsed}s)`);
        break;
      }
      progress.live(`waiting for ${what}: ${available}/${wanted} available`);
      if (Date.now() - start > seconds * 1000) throw new Error(`timed out after ${seconds}s waiting for ${what}: ${available}/${wanted} available`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
