/**
 * Test kit: `kruise up` as a child process (process.ts) for a whole `describe` block, with real
 * kubectl 1.32 on its kubeconfig: started in `before` in a fresh data directory, stopped and removed
 * in `after`. Suites destructure `{ kubectl, run, json }` at the top instead of assigning variables
 * in their own hooks.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { kubectlFor, type KubectlOptions, type KubectlResult } from './kubectl.js';
import { startUp, stopChild, type UpProcess } from './process.js';

export interface UpSuite {
  /** kubectl (1.32 unless `options.minor` says otherwise) on the suite's kubeconfig, its result as is. */
  kubectl(args: string[], options?: KubectlOptions): Promise<KubectlResult>;
  /** kubectl 1.32 that must exit 0: its stdout. */
  run(args: string[], input?: string): Promise<string>;
  /** `run` with `-o json`, parsed. */
  json<T = Record<string, any>>(args: string[]): Promise<T>; // any: kubectl's JSON, read field by field
  /** The data directory (kubeconfig, store), once started. */
  dir(): string;
  up(): UpProcess;
}

/**
 * Call inside `describe`, not at a file's top level: there node:test starts each `before` as it is
 * registered, so a later hook would not wait for `kruise up`. `args` come after `--port 0 --data-dir`.
 */
export function upForSuite(name: string, args: string[] = ['--nodes', '1', '--in-memory'], timeoutMs = 60_000): UpSuite {
  let started: { dir: string; up: UpProcess; kubectl: ReturnType<typeof kubectlFor> } | undefined;
  before(async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `kruise-${name}-`));
    const up = await startUp(['--port', '0', '--data-dir', dir, ...args], timeoutMs);
    started = { dir, up, kubectl: kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'cache')) };
  });
  after(async () => {
    if (!started) return;
    const { up, dir } = started;
    await stopChild(up.child);
    await rm(dir, { recursive: true, force: true });
  });
  const running = () => {
    if (!started) throw new Error('kruise up used before the suite\'s before() started it');
    return started;
  };
  const kubectl: UpSuite['kubectl'] = (args, options = {}) => running().kubectl(args, { minor: 32, ...options });
  const run: UpSuite['run'] = async (args, input) => {
    const r = await kubectl(args, input === undefined ? {} : { input });
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  return {
    kubectl, run,
    json: async (args) => JSON.parse(await run([...args, '-o', 'json'])),
    dir: () => running().dir,
    up: () => running().up,
  };
}
