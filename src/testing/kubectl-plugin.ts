/**
 * Real kubectl 1.32 with bin/ on its PATH, so `kubectl kruise ...` goes through kubectl's plugin
 * mechanism to bin/kubectl-kruise (docs/design/manager.md §10). `ok` asserts exit 0.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubectlBinary, type KubectlResult } from './kubectl.js';

const binDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin');

export function pluginKubectl(kubeconfig: string) {
  const run = (...args: string[]): Promise<KubectlResult> => new Promise((resolve) => {
    execFile(kubectlBinary(32), args, {
      env: { ...process.env, KUBECONFIG: kubeconfig, PATH: `${binDir}:${process.env.PATH ?? ''}` }, timeout: 120_000,
    }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
  const ok = async (...args: string[]): Promise<string> => {
    const r = await run(...args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  return { run, ok };
}
