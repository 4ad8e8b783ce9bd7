/**
 * Reading a kubeconfig (or the in-cluster service account) into what one connection needs: the
 * server, TLS material and static credentials. Covers what kubectl users and pods put there:
 * clusters/users/contexts (several files in KUBECONFIG merged, first definition wins), CA, client
 * certificate and key (file or -data, paths relative to the file), token, tokenFile, basic auth,
 * insecure-skip-tls-verify and tls-server-name. Anything else that changes how to connect (exec
 * plugins, auth providers, proxies) is reported as `needs`, and the caller falls back to
 * @kubernetes/client-node, which is kept out of memory otherwise (importing it costs ~80 MiB).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { parse as ParseYaml } from 'yaml';

/**
 * The YAML parser (1 MiB of heap) loads only when a kubeconfig file is read, not in a cluster
 * (performance.md §15), and leaves again when this load brought it: a file is read when a client
 * is made, and a manager would otherwise keep the parser for its whole life (performance.md §18).
 */
function parseYaml(text: string): unknown {
  const require = createRequire(import.meta.url);
  const loaded = new Set(Object.keys(require.cache));
  try {
    return (require('yaml') as { parse: typeof ParseYaml }).parse(text);
  } finally {
    for (const file of Object.keys(require.cache)) if (!loaded.has(file)) delete require.cache[file];
  }
}

export interface ResolvedKubeconfig {
  server: string;
  ca?: string;
  cert?: string;
  key?: string;
  insecureSkipTlsVerify?: boolean;
  tlsServerName?: string;
  token?: string;
  /** Re-read now and then: in-cluster tokens rotate. */
  tokenFile?: string;
  username?: string;
  password?: string;
  /** The current context's namespace. */
  namespace?: string;
  /** A feature this reader does not implement (`exec`, `auth-provider`, `proxy-url`, ...). */
  needs?: string;
}

export interface KubeconfigSource {
  /** A kubeconfig file; otherwise KUBECONFIG, ~/.kube/config, then the in-cluster service account. */
  path?: string;
  env?: NodeJS.ProcessEnv;
  /** Home directory for ~/.kube/config (tests). */
  home?: string;
  /** Where the service account is mounted (tests). */
  serviceAccountDir?: string;
}

type Named = { name?: string } & Record<string, unknown>;
interface Entries { clusters: Map<string, Record<string, unknown>>; users: Map<string, Record<string, unknown>>; contexts: Map<string, Record<string, unknown>>; current?: string }

export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export function loadKubeconfig(source: KubeconfigSource = {}): ResolvedKubeconfig {
  const env = source.env ?? process.env;
  if (source.path) return resolve(readFiles([source.path]));
  const fromEnv = (env.KUBECONFIG ?? '').split(path.delimiter).filter(Boolean);
  if (fromEnv.length > 0) return resolve(readFiles(fromEnv.filter((f) => existsSync(f))));
  const home = path.join(source.home ?? os.homedir(), '.kube', 'config');
  if (existsSync(home)) return resolve(readFiles([home]));
  // KRUISE_SERVICE_ACCOUNT_DIR: where tests mount a pod's service-account files (docs/design/install.md §4).
  const dir = source.serviceAccountDir ?? (env.KRUISE_SERVICE_ACCOUNT_DIR || serviceAccountDir);
  if (env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT && existsSync(path.join(dir, 'token'))) return inCluster(env, dir);
  return { server: 'http://localhost:8080' }; // client-node's and kubectl's last resort
}

export function inCluster(env: NodeJS.ProcessEnv, dir = serviceAccountDir): ResolvedKubeconfig {
  const host = env.KUBERNETES_SERVICE_HOST!;
  const ca = path.join(dir, 'ca.crt');
  return {
    server: `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT}`,
    ...(existsSync(ca) && { ca: readFileSync(ca, 'utf8') }),
    tokenFile: path.join(dir, 'token'),
  };
}

function readFiles(files: string[]): Entries {
  const out: Entries = { clusters: new Map(), users: new Map(), contexts: new Map() };
  for (const file of files) {
    const doc = (parseYaml(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
    const dir = path.dirname(path.resolve(file));
    for (const [list, inner, into] of [['clusters', 'cluster', out.clusters], ['users', 'user', out.users], ['contexts', 'context', out.contexts]] as const) {
      for (const entry of (doc[list] ?? []) as Named[]) {
        const body = (entry[inner] ?? {}) as Record<string, unknown>;
        if (entry.name !== undefined && !into.has(entry.name)) into.set(entry.name, { ...body, dir });
      }
    }
    if (!out.current && typeof doc['current-context'] === 'string' && doc['current-context']) out.current = doc['current-context'];
  }
  return out;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const decode = (v: unknown) => (str(v) ? Buffer.from(v as string, 'base64').toString('utf8') : undefined);

/** `<name>-data` (base64) wins over `<name>` (a file, relative to the kubeconfig's directory). */
function material(entry: Record<string, unknown>, name: string): string | undefined {
  const data = decode(entry[`${name}-data`]);
  if (data !== undefined) return data;
  const file = str(entry[name]);
  return file && readFileSync(path.resolve(entry.dir as string, file), 'utf8');
}

function resolve(e: Entries): ResolvedKubeconfig {
  const context = e.current ? e.contexts.get(e.current) : undefined;
  const cluster = context ? e.clusters.get(str(context.cluster) ?? '') : undefined;
  const server = cluster && str(cluster.server);
  if (!server) throw new Error('kubeconfig has no current cluster (is current-context set?)');
  const user = (context && e.users.get(str(context.user) ?? '')) ?? {};
  const needs = ['exec', 'auth-provider'].find((k) => user[k]) ?? (str(cluster['proxy-url']) ? 'proxy-url' : undefined);
  const out: ResolvedKubeconfig = { server };
  const set = <K extends keyof ResolvedKubeconfig>(k: K, v: ResolvedKubeconfig[K] | undefined) => { if (v !== undefined) out[k] = v; };
  set('ca', material(cluster, 'certificate-authority'));
  set('insecureSkipTlsVerify', cluster['insecure-skip-tls-verify'] === true || undefined);
  set('tlsServerName', str(cluster['tls-server-name']));
  set('cert', material(user, 'client-certificate'));
  set('key', material(user, 'client-key'));
  set('token', str(user.token));
  const tokenFile = str(user.tokenFile) ?? str(user['token-file']);
  set('tokenFile', tokenFile && path.resolve(user.dir as string, tokenFile));
  set('username', str(user.username));
  set('password', str(user.password));
  set('namespace', str(context?.namespace));
  set('needs', needs);
  return out;
}
