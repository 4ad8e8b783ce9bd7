/**
 * Test kit: Kruise on a REAL control plane (scripts/real-control-plane.sh), as the real-cluster suites
 * use it: `kruise install`, `kruise manager` out of process, simulated nodes and our scheduler as
 * separate processes (optionally a `kruise daemon` per node over the node's CRI socket), and real
 * kubectl. With `install: 'helm'` the chart is installed with the pinned Helm instead, and the manager
 * and daemons run as its pods would: only their ServiceAccounts' tokens and the in-pod environment
 * (pod-identity.ts). `stop()` ends the children, the plane and the temporary directory.
 */
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { kubectlFor } from './kubectl.js';
import { chartPath, helm } from './helm.js';
import { podIdentity } from './pod-identity.js';
import { startComponentProcess, startManagerProcess, stopChild, type ManagerProcess } from './process.js';
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
  /** `helm`: `helm install kruise charts/kruise` (with `helmSet` values) and the processes as the chart's pods. */
  install?: 'kruise' | 'helm';
  helmSet?: string[];
}

export interface RealKruise {
  real: RealControlPlane;
  dir: string;
  manager: ManagerProcess;
  nodeNames: string[];
  /** Our scheduler: tests stop it to keep pods unscheduled (hook-pods.ts). */
  scheduler: ChildProcess;
  /** Milliseconds from the start of the install to the manager's ready line. */
  installToReadyMs: number;
  /** Output of each daemon process. */
  daemonOutputs: (() => string)[];
  kubectl: ReturnType<typeof kubectlFor>;
  /** `kubectl <args> -o json`, asserting success. */
  json(args: string[]): Promise<Obj>;
  /** The pods labelled `app=<app>` in the default namespace that are not being deleted. */
  pods(app: string): Promise<Obj[]>;
  /** `kubectl apply -f -` of one object, asserting success. */
  apply(manifest: Obj): Promise<void>;
  stop(): Promise<void>;
}

/** Everything a child process writes, from now on. */
export function outputOf(child: ChildProcess): () => string {
  let out = '';
  child.stdout?.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr?.on('data', (c: Buffer) => { out += c.toString(); });
  return () => out;
}

export async function startRealKruise(options: RealKruiseOptions): Promise<RealKruise> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `${options.name}-`));
  const children: ChildProcess[] = [];
  const real = await startRealControlPlane();
  const stop = async () => {
    for (const c of children) await stopChild(c);
    await real.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const kubectl = kubectlFor(real.kubeconfig, path.join(dir, 'kube-cache'));
    const helmMode = options.install === 'helm';
    const t0 = Date.now();
    if (helmMode) {
      const installed = await helm(['install', 'kruise', chartPath, '--kubeconfig', real.kubeconfig, ...(options.helmSet ?? []).flatMap((v) => ['--set', v])], path.join(dir, 'helm'));
      assert.equal(installed.code, 0, installed.stderr);
    } else {
      const installed = await new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(process.execPath, [bin, 'install', '--no-workloads', '--kubeconfig', real.kubeconfig], { timeout: 60_000 }, (e, _o, stderr) => resolve({ code: e ? 1 : 0, stderr }));
      });
      assert.equal(installed.code, 0, installed.stderr);
    }
    const as = (sa: string) => (helmMode ? podIdentity(kubectl, real.kubeconfig, sa, 'kruise-system', dir) : Promise.resolve(undefined));
    const managerPod = await as('kruise-manager');
    if (managerPod) managerPod.env.WEBHOOK_CERT_WRITER = 'secret'; // the chart's Secret, as in a cluster
    const manager = await startManagerProcess(helmMode ? undefined : real.kubeconfig, path.join(dir, 'certs'), 30_000, options.gates ?? [], managerPod);
    const installToReadyMs = Date.now() - t0;
    children.push(manager.child);
    const nodes = options.nodes ?? { count: 3, prefix: 'sim-' };
    const nodeNames = Array.from({ length: nodes.count }, (_, i) => `${nodes.prefix}${i}`);
    const criDir = path.join(dir, 'cri');
    children.push(await startComponentProcess(['nodes', '--kubeconfig', real.kubeconfig, '--count', String(nodes.count), '--name-prefix', nodes.prefix,
      ...(options.daemons ? ['--cri-dir', criDir] : []), ...(nodes.extraArgs ?? [])], /nodes ready/));
    const scheduler = await startComponentProcess(['scheduler', '--kubeconfig', real.kubeconfig], /scheduler ready/);
    children.push(scheduler);
    const daemonPod = options.daemons ? await as('kruise-daemon') : undefined;
    const daemonOutputs: (() => string)[] = [];
    for (const node of options.daemons ? nodeNames : []) {
      const daemon = await startComponentProcess(
        ['daemon', ...(daemonPod ? [] : ['--kubeconfig', real.kubeconfig]), '--node-name', node, '--socket-file', path.join(criDir, `${node}.sock`), '--addr', '127.0.0.1:0'],
        new RegExp(`kruise-daemon ready on node ${node}: runtimes `), 20_000, daemonPod,
      );
      children.push(daemon);
      daemonOutputs.push(outputOf(daemon));
    }
    const json = async (args: string[]): Promise<Obj> => {
      const r = await kubectl([...args, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as Obj;
    };
    const pods = async (app: string): Promise<Obj[]> =>
      ((await json(['get', 'pods', '-l', `app=${app}`])).items as Obj[]).filter((p) => !p.metadata.deletionTimestamp);
    const apply = async (manifest: Obj) => {
      const r = await kubectl(['apply', '-f', '-'], { input: stringify(manifest) });
      assert.equal(r.code, 0, r.stderr);
    };
    return { real, dir, manager, nodeNames, scheduler, installToReadyMs, daemonOutputs, kubectl, json, pods, apply, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
