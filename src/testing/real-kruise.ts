/**
 * Test kit: Kruise on a REAL control plane (scripts/real-control-plane.sh), as the real-cluster suites
 * use it: `kruise install`, `kruise manager` out of process, simulated nodes and our scheduler as
 * separate processes (optionally a `kruise daemon` per node over the node's CRI socket), and real
 * kubectl. `stop()` ends the children, the plane and the temporary directory.
 */
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { kubectlFor } from './kubectl.js';
import { startComponentProcess, startManagerProcess, type ManagerProcess } from './process.js';
import { startRealControlPlane, type RealControlPlane } from './real-control-plane.js';

type Obj = Record<string, any>; // any: kubectl's JSON output, read field by field

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/kruise.js');

export interface RealKruiseOptions {
  /** Prefix of the temporary directory. */
  name: string;
  /** Feature gates for the manager (deletion protection is always on). */
  gates?: string[];
  nodes?: { count: number; prefix: string; extraArgs?: string[] };
  /** One `kruise daemon` per simulated node, over its CRI socket. */
  daemons?: boolean;
}

export interface RealKruise {
  real: RealControlPlane;
  dir: string;
  manager: ManagerProcess;
  nodeNames: string[];
  kubectl: ReturnType<typeof kubectlFor>;
  /** `kubectl <args> -o json`, asserting success. */
  json(args: string[]): Promise<Obj>;
  /** `kubectl apply -f -` of one object, asserting success. */
  apply(manifest: Obj): Promise<void>;
  stop(): Promise<void>;
}

export async function startRealKruise(options: RealKruiseOptions): Promise<RealKruise> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `${options.name}-`));
  const children: ChildProcess[] = [];
  const real = await startRealControlPlane();
  const stop = async () => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    }
    await real.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const installed = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [bin, 'install', '--no-workloads', '--kubeconfig', real.kubeconfig], { timeout: 60_000 }, (e, _o, stderr) => resolve({ code: e ? 1 : 0, stderr }));
    });
    assert.equal(installed.code, 0, installed.stderr);
    const manager = await startManagerProcess(real.kubeconfig, path.join(dir, 'certs'), 30_000, options.gates ?? []);
    children.push(manager.child);
    const nodes = options.nodes ?? { count: 3, prefix: 'sim-' };
    const nodeNames = Array.from({ length: nodes.count }, (_, i) => `${nodes.prefix}${i}`);
    const criDir = path.join(dir, 'cri');
    children.push(await startComponentProcess(['nodes', '--kubeconfig', real.kubeconfig, '--count', String(nodes.count), '--name-prefix', nodes.prefix,
      ...(options.daemons ? ['--cri-dir', criDir] : []), ...(nodes.extraArgs ?? [])], /nodes ready/));
    children.push(await startComponentProcess(['scheduler', '--kubeconfig', real.kubeconfig], /scheduler ready/));
    for (const node of options.daemons ? nodeNames : []) {
      children.push(await startComponentProcess(
        ['daemon', '--kubeconfig', real.kubeconfig, '--node-name', node, '--socket-file', path.join(criDir, `${node}.sock`), '--addr', '127.0.0.1:0'],
        new RegExp(`kruise-daemon ready on node ${node}: runtimes `),
      ));
    }
    const kubectl = kubectlFor(real.kubeconfig, path.join(dir, 'kube-cache'));
    const json = async (args: string[]): Promise<Obj> => {
      const r = await kubectl([...args, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Obj;
    };
    const apply = async (manifest: Obj) => {
      const r = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
      assert.equal(r.code, 0, r.stderr);
    };
    return { real, dir, manager, nodeNames, kubectl, json, apply, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
