/**
 * The kubeconfig `kruise up` writes: one cluster (server URL + embedded CA), one admin user
 * (bearer token or embedded client certificate) and one context. Only the fields both kubectl and
 * @kubernetes/client-node read (docs/design/apiserver.md).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import type { KeyPair } from './pki.js';

export interface KubeconfigOptions {
  /** e.g. https://127.0.0.1:6443 */
  server: string;
  caPem: string;
  /** The user entry's name (`<cluster>-<user>`): admin, or a ServiceAccount's name. */
  user: string;
  token?: string;
  clientCert?: KeyPair;
  /** Names the cluster and the context; defaults to "kruise". */
  clusterName?: string;
  namespace?: string;
}

export function buildKubeconfig(options: KubeconfigOptions): string {
  const url = new URL(options.server); // throws on a malformed server address
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`kubeconfig server must be http(s), got ${options.server}`);
  }
  if (!options.token && !options.clientCert) throw new Error('kubeconfig needs a token or a client certificate');
  const cluster = options.clusterName ?? 'kruise';
  // Qualified so merging into ~/.kube/config (KUBECONFIG=a:b) does not clash with another "admin".
  const userName = `${cluster}-${options.user}`;
  const context: Record<string, string> = { cluster, user: userName };
  if (options.namespace) context.namespace = options.namespace;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: cluster,
        cluster: { server: options.server, 'certificate-authority-data': base64(options.caPem) },
      },
    ],
    users: [{ name: userName, user: userCredentials(options) }],
    contexts: [{ name: cluster, context }],
    'current-context': cluster,
    preferences: {},
  };
  return stringify(config);
}

function userCredentials(options: KubeconfigOptions): Record<string, string> {
  // Both are allowed together; kube-apiserver tries the certificate first.
  const user: Record<string, string> = {};
  if (options.clientCert) {
    user['client-certificate-data'] = base64(options.clientCert.certPem);
    user['client-key-data'] = base64(options.clientCert.keyPem);
  }
  if (options.token) user.token = options.token;
  return user;
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** Writes the kubeconfig with mode 0600 (it holds credentials), creating parent directories. */
export async function writeKubeconfig(file: string, yamlText: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, yamlText, { mode: 0o600 });
  await rename(tmp, file);
}
