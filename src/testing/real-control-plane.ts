/**
 * Test kit: a real Kubernetes control plane (etcd, kube-apiserver, kube-controller-manager) on loopback,
 * started by scripts/real-control-plane.sh from binaries cached by its `build` subcommand.
 * Differential tests run the same probe against it and against the embedded server.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/real-control-plane.sh');
const defaultVersion = 'v1.32.13';

export interface RealControlPlaneAvailability {
  available: boolean;
  reason: string;
  binDir?: string;
}

export interface RealControlPlane {
  kubeconfig: string;
  url: string;
  caPem: string;
  token: string;
  stop(): Promise<void>;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  return (process.env.PATH ?? '').split(':').map((dir) => path.join(dir, name)).find(executable);
}

/** The bin dir the script will use: K8S_REAL_BIN_DIR, else the cache entry for K8S_REAL_VERSION. */
export function realBinDir(): string {
  if (process.env.K8S_REAL_BIN_DIR) return process.env.K8S_REAL_BIN_DIR;
  const cache = process.env.K8S_REAL_CACHE ?? path.join(os.homedir(), '.cache', 'k8s-real');
  return path.join(cache, process.env.K8S_REAL_VERSION ?? defaultVersion, 'bin');
}

/** Whether the binaries are there; `reason` says what is missing (tests pass it to `t.skip`). */
export function realControlPlaneAvailable(): RealControlPlaneAvailability {
  const binDir = realBinDir();
  const missing = ['kube-apiserver', 'kube-controller-manager'].filter((b) => !executable(path.join(binDir, b)));
  // The script falls back to an etcd on PATH (Debian's etcd-server) when the cache has none.
  if (!executable(path.join(binDir, 'etcd')) && !onPath('etcd')) missing.push('etcd');
  const tools = ['bash', 'openssl', 'curl'].filter((t) => !onPath(t));
  if (missing.length > 0) {
    return { available: false, reason: `no ${missing.join(', ')} in ${binDir} (build with scripts/real-control-plane.sh build)` };
  }
  if (tools.length > 0) return { available: false, reason: `${tools.join(', ')} not on PATH` };
  return { available: true, reason: `binaries in ${binDir}`, binDir };
}

function runScript(args: string[], env: Record<string, string>, timeoutMs: number): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', [script, ...args], { env: { ...process.env, ...env }, timeout: timeoutMs }, (error, _stdout, stderr) => {
      resolve({ code: error ? 1 : 0, stderr });
    });
  });
}

/**
 * Starts a fresh control plane in a temp dir and resolves once /readyz is 200 and the controllers run.
 * The script stops it by itself if this process dies without calling stop().
 * `durable`: etcd keeps its data on disk beside the kubeconfig and syncs it (by default it runs on
 * tmpfs without fsync, for fast tests); benchmarks against a store that syncs use it.
 */
export async function startRealControlPlane(options: { withControllerManager?: boolean; durable?: boolean; timeoutMs?: number } = {}): Promise<RealControlPlane> {
  const availability = realControlPlaneAvailable();
  if (!availability.available || !availability.binDir) throw new Error(`real control plane unavailable: ${availability.reason}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'k8s-real-'));
  const env: Record<string, string> = { K8S_REAL_BIN_DIR: availability.binDir, K8S_REAL_PARENT_PID: String(process.pid) };
  if (options.withControllerManager === false) env.K8S_REAL_NO_KCM = '1';
  if (options.durable) env.K8S_REAL_DURABLE = '1';
  const started = await runScript(['start', dir], env, options.timeoutMs ?? 150_000);
  if (started.code !== 0) {
    // The script already stopped what it started; a timeout kill may have left some, so stop again.
    await runScript(['stop', dir], env, 30_000);
    await rm(dir, { recursive: true, force: true });
    throw new Error(`real control plane failed to start:\n${started.stderr}`);
  }
  const read = (file: string) => readFile(path.join(dir, file), 'utf8');
  const [url, caPem, token] = await Promise.all([read('url'), read('pki/ca.crt'), read('pki/token')]);
  return {
    kubeconfig: path.join(dir, 'kubeconfig'),
    url: url.trim(),
    caPem,
    token: token.trim(),
    async stop() {
      const stopped = await runScript(['stop', dir], env, 60_000);
      if (stopped.code !== 0) throw new Error(`real control plane did not stop cleanly:\n${stopped.stderr}`);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
