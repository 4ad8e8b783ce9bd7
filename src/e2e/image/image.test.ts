/**
 * The container image built without a Docker daemon (scripts/image.sh, docs/design/image.md): its OCI
 * configuration says uid 65534 and entrypoint `kruise`, and from its unpacked root filesystem the
 * entrypoint prints the version and the manager's help. Skipped, with the reason, when mmdebstrap or
 * umoci is not on PATH (`scripts/image.sh build` installs them with apt-get as root).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const script = path.join(repo, 'scripts/image.sh');

interface OciConfig { config: { User: string; Entrypoint: string[]; Env: string[]; WorkingDir: string } }

async function blob(layout: string, digest: string): Promise<unknown> {
  const file = digest === 'index' ? 'index.json' : path.join('blobs', ...digest.split(':'));
  return JSON.parse(await readFile(path.join(layout, file), 'utf8'));
}

async function toolsPresent(): Promise<boolean> {
  try { await run('bash', [script, 'tools']); return true; } catch { return false; }
}

test('image: OCI layout runs kruise as uid 65534 from its own root filesystem', { timeout: 600_000 }, async (t) => {
  if (!(await toolsPresent())) {
    t.skip('mmdebstrap or umoci not on PATH (scripts/image.sh build installs them with apt-get as root)');
    return;
  }
  const version = (JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;
  const built = await run('bash', [script, 'build'], { maxBuffer: 1 << 24 });
  const layout = built.stdout.trim().split('\n').pop()!;

  const index = await blob(layout, 'index') as { manifests: Array<{ digest: string; annotations: Record<string, string> }> };
  assert.equal(index.manifests[0].annotations['org.opencontainers.image.ref.name'], version);
  assert.equal(index.manifests[0].annotations['io.containerd.image.name'], `docker.io/kruise-ts/kruise:${version}`);
  const manifest = await blob(layout, index.manifests[0].digest) as { config: { digest: string }; layers: unknown[] };
  assert.equal(manifest.layers.length, 2);
  const { config } = await blob(layout, manifest.config.digest) as OciConfig;
  assert.equal(config.User, '65534:65534');
  assert.deepEqual(config.Entrypoint, ['kruise']);
  assert.equal(config.WorkingDir, '/app');

  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-image-'));
  try {
    const root = process.getuid?.() === 0;
    await run('umoci', ['unpack', ...(root ? [] : ['--rootless']), '--image', `${layout}:${version}`, path.join(dir, 'bundle')]);
    const rootfs = path.join(dir, 'bundle/rootfs');
    const env = Object.fromEntries(config.Env.map((e) => e.split(/=(.*)/s).slice(0, 2)));
    // As root, chroot as the image's user, resolving `kruise` on the image's PATH like a runtime; else the
    // image's own node runs the image's files.
    const entry = (args: string[]) => root
      ? run('/usr/sbin/chroot', ['--userspec=65534:65534', rootfs, ...config.Entrypoint, ...args], { env, cwd: '/' })
      : run(path.join(rootfs, 'usr/local/bin/node'), [path.join(rootfs, 'app/bin/kruise.js'), ...args], { env });

    assert.equal((await entry(['--version'])).stdout.trim(), version);
    const help = await entry(['manager', '--help']);
    assert.match(help.stdout, /^Usage: kruise manager \[options\]/);
    assert.match(help.stdout, /--leader-election-namespace/);
    assert.match((await entry(['daemon', '--help'])).stdout, /^Usage: kruise daemon/);
    if (root) {
      // kruise-daemon reads the CRI wire definitions from a file next to dist at run time.
      const probe = "import('/app/dist/daemon/cri/grpc/proto.js').then((m) => console.log(require('fs').statSync(m.criProtoPath).size))";
      const out = await run('/usr/sbin/chroot', ['--userspec=65534:65534', rootfs, 'node', '-e', probe], { env, cwd: '/' });
      assert.ok(Number(out.stdout) > 1000, out.stdout);
      const id = await run('/usr/sbin/chroot', ['--userspec=65534:65534', rootfs, 'id', '-u'], { env, cwd: '/' });
      assert.equal(id.stdout.trim(), '65534');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
