/**
 * End to end: real kubectl 1.32 POSTs protobuf bodies to a loopback stub server; each decoded body must
 * equal the JSON that the same kubectl command prints with `--dry-run=client -o json`.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildKubeconfig, writeKubeconfig } from '../../auth/kubeconfig.js';
import { generateCA, issueServingCert } from '../../auth/pki.js';
import { decodeProtobufObject, isProtobufContentType } from './decode.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.32';

/** group/version -> [plural, kind, namespaced] served by the stub's discovery. */
const RESOURCES: Record<string, Array<[string, string, boolean]>> = {
  v1: [['namespaces', 'Namespace', false], ['configmaps', 'ConfigMap', true], ['secrets', 'Secret', true],
    ['services', 'Service', true], ['serviceaccounts', 'ServiceAccount', true], ['pods', 'Pod', true],
    ['resourcequotas', 'ResourceQuota', true]],
  'apps/v1': [['deployments', 'Deployment', true]],
  'batch/v1': [['jobs', 'Job', true], ['cronjobs', 'CronJob', true]],
  'policy/v1': [['poddisruptionbudgets', 'PodDisruptionBudget', true]],
  'rbac.authorization.k8s.io/v1': [['roles', 'Role', true], ['rolebindings', 'RoleBinding', true],
    ['clusterroles', 'ClusterRole', false]],
  'scheduling.k8s.io/v1': [['priorityclasses', 'PriorityClass', false]],
};

// `kubectl run` is not here: 1.32 sends its Pod as JSON (generic resource helper), not protobuf.
const COMMANDS: string[][] = [
  ['create', 'namespace', 'foo'],
  ['create', 'configmap', 'cm', '--from-literal=a=1', '--from-literal=b='],
  ['create', 'secret', 'generic', 's', '--from-literal=k=v'],
  ['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=0', '--port=80'],
  ['create', 'service', 'clusterip', 'svc', '--tcp=80:8080'],
  ['create', 'job', 'j', '--image=busybox', '--', 'echo', 'hi'],
  ['create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *'],
  ['create', 'serviceaccount', 'sa'],
  ['create', 'role', 'r', '--verb=get', '--resource=pods'],
  ['create', 'clusterrole', 'cr', '--verb=get', '--resource=namespaces'],
  ['create', 'rolebinding', 'rb', '--role=r', '--user=alice'],
  ['create', 'poddisruptionbudget', 'pdb', '--selector=app=web', '--min-available=50%'],
  ['create', 'priorityclass', 'pc', '--value=1000', '--description=test'],
  ['create', 'quota', 'q', '--hard=pods=10,cpu=2,memory=1Gi'],
];

function discovery(url: string): unknown {
  if (url === '/version') return { major: '1', minor: '32', gitVersion: 'v1.32.10' };
  if (url === '/api') return { kind: 'APIVersions', versions: ['v1'] };
  if (url === '/apis') {
    const groups = Object.keys(RESOURCES).filter((gv) => gv.includes('/')).map((gv) => {
      const [name, version] = gv.split('/');
      const v = { groupVersion: gv, version };
      return { name, versions: [v], preferredVersion: v };
    });
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }
  const gv = url === '/api/v1' ? 'v1' : url.replace(/^\/apis\//, '');
  const list = RESOURCES[gv];
  if (!list) return undefined;
  const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
  const resources = list.map(([name, kind, namespaced]) => ({ name, singularName: '', kind, namespaced, verbs }));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources };
}

describe('kubectl 1.32 protobuf request bodies', { timeout: 60_000 }, () => {
  const skip = existsSync(KUBECTL) ? false : `${KUBECTL} not installed`;
  const posted: Array<{ url: string; contentType?: string; body: Buffer }> = [];
  let server: https.Server;
  let dir = '';
  let kubeconfig = '';

  before(async () => {
    if (skip) return;
    dir = await mkdtemp(path.join(tmpdir(), 'kruise-pb-'));
    const ca = await generateCA('test-ca');
    const serving = await issueServingCert(ca, ['127.0.0.1']);
    server = https.createServer({ key: serving.keyPem, cert: serving.certPem }, (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        const url = (req.url ?? '').split('?')[0];
        if (req.method !== 'POST') {
          const doc = discovery(url);
          return doc ? send(200, doc) : send(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound' });
        }
        const body = Buffer.concat(chunks);
        posted.push({ url, contentType: req.headers['content-type'], body });
        try {
          send(201, isProtobufContentType(req.headers['content-type']) ? decodeProtobufObject(body).object : JSON.parse(body.toString()));
        } catch (e) {
          send(400, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 400, message: String(e) });
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    kubeconfig = path.join(dir, 'kubeconfig');
    await writeKubeconfig(kubeconfig, buildKubeconfig({
      server: `https://127.0.0.1:${port}`, caPem: ca.certPem, user: 'admin', token: 't', namespace: 'default',
    }));
  });

  after(async () => {
    if (skip) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  function kubectl(args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
    const argv = ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache'), ...args];
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir };
    return new Promise((resolve) =>
      execFile(KUBECTL, argv, { env, timeout: 20_000 }, (err, stdout, stderr) => resolve({ ok: !err, stdout, stderr })));
  }

  test('each create sends protobuf that decodes to the dry-run JSON', { skip }, async () => {
    // Discovery first, so the parallel runs below share a warm cache.
    assert.ok((await kubectl(['api-resources'])).ok);
    for (let i = 0; i < COMMANDS.length; i += 4) {
      await Promise.all(COMMANDS.slice(i, i + 4).map(async (args) => {
        const dryRun = await kubectl([...insertFlags(args, ['--dry-run=client', '-o', 'json'])]);
        assert.ok(dryRun.ok, `${args.join(' ')}: ${dryRun.stderr}`);
        const real = await kubectl(args);
        assert.ok(real.ok, `${args.join(' ')}: ${real.stderr}`);
        const expected = JSON.parse(dryRun.stdout) as { kind: string; metadata: { name: string } };
        const sent = posted.find((p) => p.body.includes(Buffer.from(expected.metadata.name)) && kindOf(p.body) === expected.kind);
        assert.ok(sent, `${args.join(' ')}: no body captured`);
        assert.ok(isProtobufContentType(sent.contentType), `${args.join(' ')}: sent ${sent.contentType}`);
        assert.deepEqual(decodeProtobufObject(sent.body).object, expected, args.join(' '));
      }));
    }
  });
});

/** Flags go before a `--` separator (kubectl create job j --image=x -- cmd). */
function insertFlags(args: string[], flags: string[]): string[] {
  const at = args.indexOf('--');
  return at < 0 ? [...args, ...flags] : [...args.slice(0, at), ...flags, ...args.slice(at)];
}

function kindOf(body: Buffer): string {
  try {
    return decodeProtobufObject(body).kind;
  } catch {
    return '';
  }
}
