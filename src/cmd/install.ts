/** `kruise crds` and `kruise install`. */
import { stringify } from 'yaml';
import { installManifests } from '../install/manifests.js';
import { installKruise } from '../install/install.js';
import { createHttpClient } from '../client/index.js';

export function runCrds(): void {
  const crds = installManifests().filter((m) => m.kind === 'CustomResourceDefinition');
  process.stdout.write(crds.map((c) => stringify(c, { lineWidth: 0 })).join('---\n'));
}

export async function runInstall(options: { kubeconfig?: string }): Promise<void> {
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-install' });
  const applied = await installKruise(client, (line) => console.log(line));
  console.log(`kruise installed: ${applied.length} objects applied`);
}
