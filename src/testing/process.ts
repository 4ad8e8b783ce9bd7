/** Test kit: `kruise up` as a child process, and a minimal HTTPS client for its API. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/kruise.js');

export interface UpProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Signals a child and resolves with its exit code (null when a signal ended it) once it has exited;
 * at once if it already had (a child killed by a signal keeps exitCode null, and its 'exit' event
 * will not fire again).
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}

/** Starts `kruise up` and resolves once it printed its ready line. */
export function startUp(args: string[], timeoutMs = 20_000): Promise<UpProcess> {
  const child = spawn(process.execPath, [bin, 'up', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kruise up not ready:\n${out}`)); }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /ready at (https:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`kruise up exited ${code}:\n${out}`)); });
  });
}

export interface ApiClient {
  request(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string }>;  
}

/** A raw HTTPS client authenticated by the kubeconfig's token, for tests that need exact bytes. */
export async function apiClientFromKubeconfig(kubeconfigPath: string): Promise<ApiClient> {
  const kc = parse(await readFile(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
    users: { user: { token?: string } }[];
  };
  const server = new URL(kc.clusters[0].cluster.server);
  const ca = Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64');
  const token = kc.users[0].user.token;
  const agent = new https.Agent({ ca, keepAlive: true, maxSockets: 64 });
  return {
    request(method, urlPath, body, headers = {}) {
      return new Promise((resolve, reject) => {
        const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        const req = https.request({
          host: server.hostname, port: server.port, path: urlPath, method, agent,
          headers: {
            authorization: `Bearer ${token}`, 'content-type': 'application/json',
            ...(payload === undefined ? {} : { 'content-length': String(Buffer.byteLength(payload)) }), ...headers,
          },
        }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            let parsed: unknown;
            try { parsed = JSON.parse(text); } catch { parsed = undefined; }
            resolve({ status: res.statusCode ?? 0, body: parsed, text });
          });
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
  };
}

/**
 * A process started as a pod would be (src/testing/pod-identity.ts): the in-pod environment
 * (KUBERNETES_SERVICE_HOST/PORT, the service-account directory, no kubeconfig) and no --kubeconfig.
 */
export interface PodIdentity {
  env: Record<string, string>;
}

export interface ManagerProcess {
  child: ChildProcess;
  webhookPort: number;
  output(): string;
}

/**
 * Spawns `kruise manager` on loopback only (URL-form webhooks at 127.0.0.1:<free port>, deletion
 * protection on) and resolves at its ready line.
 */
export function startManagerProcess(kubeconfig: string | undefined, certDir: string, timeoutMs = 30_000, gates: string[] = [], asPod?: PodIdentity): Promise<ManagerProcess> {
  const args = ['manager', ...(kubeconfig ? ['--kubeconfig', kubeconfig] : []), '--health-addr', '127.0.0.1:0', '--webhook-bind-address', '127.0.0.1',
    ...(asPod ? [] : ['--no-leader-elect']), '--feature-gates', ['ResourcesDeletionProtection=true', ...gates].join(','), '--log-level', 'warn'];
  const env = { ...process.env, WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: '0', WEBHOOK_CERT_DIR: certDir, ...asPod?.env };
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`manager not ready:\n${out}`)); }, timeoutMs);
    const onExit = (code: number | null) => { clearTimeout(timer); reject(new Error(`manager exited ${code}:\n${out}`)); };
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /kruise manager ready;.*webhooks on port (\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve({ child, webhookPort: Number(m[1]), output: () => out });
    });
    child.on('exit', onExit);
  });
}

/** Spawns `kruise <args>` (scheduler, nodes, ...) and resolves once its output matches `readyPattern`. */
export function startComponentProcess(args: string[], readyPattern: RegExp, timeoutMs = 20_000, asPod?: PodIdentity): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...asPod?.env } });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kruise ${args[0]} not ready:\n${out}`)); }, timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (readyPattern.test(out)) { clearTimeout(timer); resolve(child); }
    });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
  });
}
