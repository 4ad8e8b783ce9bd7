/** `kruise crds`, `kruise install` and `kruise uninstall` (docs/design/install.md). */
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { installManifests, chartObjects } from '../install/manifests.js';
import { installKruise } from '../install/install.js';
import { kruiseWorkloadsLeft, uninstallKruise, WorkloadsLeftError } from '../install/uninstall.js';
import { defaultChartValues, mergeValues, type ChartValues } from '../install/chart/values.js';
import { createHttpClient } from '../client/index.js';

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
  const applied = await installKruise(client, { values, workloads: options.workloads, log: (line) => console.log(line) });
  console.log(`kruise installed: ${applied.length} objects applied`);
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
