/**
 * Test kit: crictl (kubernetes-sigs/cri-tools) as built and cached by scripts/crictl.sh, which is
 * the one place knowing its version and cache. Tests never build it: without the cached binary they
 * skip with the reason this gives.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/crictl.sh');

export interface CrictlAvailability {
  binary?: string;
  /** Why there is none (for `t.skip`). */
  reason: string;
}

export interface CrictlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The cached crictl, or why there is none (`CRICTL_BIN` points at another binary). */
export function findCrictl(): Promise<CrictlAvailability> {
  if (process.env.CRICTL_BIN) return Promise.resolve({ binary: process.env.CRICTL_BIN, reason: 'CRICTL_BIN' });
  return new Promise((resolve) => {
    execFile('bash', [script, 'path'], { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) resolve({ reason: stderr.trim() || `${error.message} (build crictl with scripts/crictl.sh build)` });
      else resolve({ binary: stdout.trim(), reason: 'cached' });
    });
  });
}

/** Runs crictl against one CRI socket, its runtime and image endpoint (crictl warns that it has no config file). */
export function crictlAt(binary: string, socketPath: string): (args: string[]) => Promise<CrictlResult> {
  const endpoint = `unix://${socketPath}`;
  return (args) => new Promise((resolve) => {
    execFile(binary, ['--runtime-endpoint', endpoint, '--image-endpoint', endpoint, '--timeout', '10s', ...args],
      { timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }));
  });
}
