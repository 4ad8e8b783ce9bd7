/**
 * Test kit: the pinned Helm that scripts/helm.sh builds and caches, run against charts/kruise.
 * Tests skip with `helmAvailable().reason` when it has not been built.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const chartPath = path.join(root, 'charts', 'kruise');
const version = process.env.HELM_VERSION ?? 'v3.17.3';
const helmBin = path.join(process.env.HELM_CACHE ?? path.join(os.homedir(), '.cache', 'kruise-ts', 'helm'), version, 'helm');

export function helmAvailable(): { available: boolean; reason: string } {
  try {
    accessSync(helmBin, constants.X_OK);
    return { available: true, reason: helmBin };
  } catch {
    return { available: false, reason: `no ${helmBin} (build with scripts/helm.sh build)` };
  }
}

export interface HelmResult { code: number; stdout: string; stderr: string }

/** Runs helm with its own config, cache and data directories under `home` (nothing from the user's). */
export function helm(args: string[], home: string, timeoutMs = 180_000): Promise<HelmResult> {
  const env = {
    PATH: process.env.PATH ?? '', HOME: home,
    HELM_CONFIG_HOME: path.join(home, 'config'), HELM_CACHE_HOME: path.join(home, 'cache'), HELM_DATA_HOME: path.join(home, 'data'),
  };
  return new Promise((resolve) => {
    execFile(helmBin, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
