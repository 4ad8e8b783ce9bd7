/**
 * Test kit: run a Kruise process as a pod of the chart would run (docs/design/install.md §4): a
 * ServiceAccount token from the TokenRequest API (`kubectl create token`), the cluster CA and the
 * namespace in a service-account directory, KUBERNETES_SERVICE_HOST/PORT, and no kubeconfig at all.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { kubectlFor } from './kubectl.js';
import type { PodIdentity } from './process.js';

type Obj = Record<string, any>; // any: a kubeconfig read field by field

export async function podIdentity(
  kubectl: ReturnType<typeof kubectlFor>, adminKubeconfig: string, serviceAccount: string, namespace: string, dir: string,
): Promise<PodIdentity> {
  const token = await kubectl(['create', 'token', serviceAccount, '-n', namespace, '--duration', '2h']);
  assert.equal(token.code, 0, token.stderr);
  const cluster = (parse(await readFile(adminKubeconfig, 'utf8')) as Obj).clusters[0].cluster as Obj;
  const server = new URL(cluster.server as string);
  const saDir = path.join(dir, `sa-${serviceAccount}`);
  const home = path.join(dir, `home-${serviceAccount}`);
  await mkdir(saDir, { recursive: true });
  await mkdir(home, { recursive: true });
  await writeFile(path.join(saDir, 'token'), token.stdout.trim());
  await writeFile(path.join(saDir, 'ca.crt'), Buffer.from(cluster['certificate-authority-data'] as string, 'base64'));
  await writeFile(path.join(saDir, 'namespace'), namespace);
  return {
    env: {
      KUBERNETES_SERVICE_HOST: server.hostname.replace(/^\[|\]$/g, ''), KUBERNETES_SERVICE_PORT: server.port || '443',
      KRUISE_SERVICE_ACCOUNT_DIR: saDir, HOME: home, KUBECONFIG: '', POD_NAMESPACE: namespace,
    },
  };
}
