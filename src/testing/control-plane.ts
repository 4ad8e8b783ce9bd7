/** Test kit: an embedded control plane on a free port with its own data dir and kubeconfig. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../apiserver/server.js';
import { buildKubeconfig, writeKubeconfig } from '../apiserver/auth/kubeconfig.js';
import { kubectlFor } from './kubectl.js';

export interface TestControlPlane {
  plane: ControlPlane;
  dir: string;
  kubeconfig: string;
  kubectl: ReturnType<typeof kubectlFor>;
  stop(): Promise<void>;
}

export async function startTestControlPlane(options: { inMemory?: boolean; dir?: string; port?: number; store?: ControlPlaneOptions['store']; authorizationMode?: ControlPlaneOptions['authorizationMode']; serviceAccountAdmission?: boolean } = {}): Promise<TestControlPlane> {
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'kruise-test-')));
  const plane = await startControlPlane({ dataDir: dir, port: options.port ?? 0, inMemory: options.inMemory ?? true, store: options.store, authorizationMode: options.authorizationMode, serviceAccountAdmission: options.serviceAccountAdmission });
  const kubeconfig = path.join(dir, 'kubeconfig');
  await writeKubeconfig(kubeconfig, buildKubeconfig({ server: plane.url, caPem: plane.pki.ca.certPem, user: 'admin', token: plane.pki.adminToken }));
  return {
    plane, dir, kubeconfig,
    kubectl: kubectlFor(kubeconfig, path.join(dir, 'kube-cache')),
    async stop() {
      await plane.stop();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
