/**
 * The container image built without a Docker daemon (scripts/image.sh, docs/design/image.md): its OCI
 * configuration says uid 65534 and entrypoint `kruise`, and from its unpacked root filesystem the
 * entrypoint prints the version and the manager's help. The test never builds the image (a cold build
 * fetches Debian packages from a mirror): `.ci/run` builds it before the tests, and without the cached
 * layout, or without umoci to unpack it, the test skips with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
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

/** The cached layout `scripts/image.sh build` made last, or why there is none (for `t.skip`). */
async function cachedLayout(): Promise<{ layout?: string; reason: string }> {
  const layout = (await run('bash', [script, 'path'])).stdout.trim();
  try {
    // The key is written last: a layout without it is a build that did not finish.
    await Promise.all([access(path.join(layout, 'index.json')), access(path.join(layout, '..', 'key'))]);
  } catch {
    return { reason: `image not built: run scripts/image.sh build (no complete layout in ${layout})` };
  }
  try { await run('bash', ['-c', 'command -v umoci']); } catch {
    return { reason: 'umoci not on PATH to unpack the image (scripts/image.sh build installs it with apt-get as root)' };
  }
  return { layout, reason: 'cached' };
}

test('image: OCI layout runs kruise as uid 65534 from its own root filesystem', { timeout: 600_000 }, async (t) => {
  const { layout, reason } = await cachedLayout();
  if (!layout) {
    t.skip(reason);
    return;
  }
  const version = (JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;

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
