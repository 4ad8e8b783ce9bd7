/** Runs the real kubectl binary (a pinned minor version) against a test server. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const searchDirs = [...(process.env.PATH ?? '').split(':'), '/usr/lib/google-cloud-sdk/bin'];

export function kubectlBinary(minor = 32): string {
  if (process.env.KUBECTL) return process.env.KUBECTL;
  for (const dir of searchDirs) {
    const candidate = path.join(dir, `kubectl.1.${minor}`);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`kubectl.1.${minor} not found on PATH or in /usr/lib/google-cloud-sdk/bin`);
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  input?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  minor?: number;
}

/** A kubectl bound to one kubeconfig and a private discovery cache. */
export function kubectlFor(kubeconfig: string, cacheDir: string) {
  return (args: string[], options: KubectlOptions = {}): Promise<KubectlResult> =>
    new Promise((resolve) => {
      // discovery caches are per minor: older kubectls must not read a newer one's cache
      const cache = options.minor ? `${cacheDir}-${options.minor}` : cacheDir;
      const child = execFile(kubectlBinary(options.minor), ['--kubeconfig', kubeconfig, '--cache-dir', cache, ...args], {
        env: { ...process.env, ...options.env }, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024,
      }, (error, stdout, stderr) => {
        const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
      if (options.input !== undefined) child.stdin?.end(options.input);
    });
}
