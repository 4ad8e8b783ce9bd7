/**
 * Registry credentials from image pull Secrets, as kubelet's credential keyring reads them (and
 * kruise-daemon, which uses the same code upstream): entries of `kubernetes.io/dockerconfigjson` or
 * the older `dockercfg` Secrets whose registry key covers the image's repository (host globs like
 * `*.example.com` allowed), most specific key first. Used by the simulated kubelet and the daemon's
 * image puller alike (docs/design/simulated-nodes.md §10, docs/design/image-pulling.md §6.3).
 */
import type { Secret } from '../../api/core/index.js';
import { parseImage } from './image-ref.js';
import type { AuthConfig } from './types.js';

interface DockerConfigEntry { username?: string; password?: string; auth?: string; identitytoken?: string; registrytoken?: string }

/** `https://index.docker.io/v1/` → `docker.io`; `registry.example.com:5000/team/` → `registry.example.com:5000/team`. */
export function registryKey(key: string): string {
  const bare = key.replace(/^[a-z]+:\/\//, '').replace(/\/v[12]\/?$/, '').replace(/\/+$/, '');
  return bare.replace(/^(index\.docker\.io|registry-1\.docker\.io)(?=\/|$)/, 'docker.io');
}

/** Whether a registry key covers the image's repository (`*` in the host matches any run of characters). */
export function keyCovers(key: string, image: string): boolean {
  const [host = '', ...path] = registryKey(key).split('/');
  const [repoHost = '', ...repoPath] = parseImage(image).repository.split('/');
  const hostPattern = new RegExp(`^${host.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return hostPattern.test(repoHost) && path.every((segment, i) => repoPath[i] === segment);
}

/** The credentials these Secrets offer for `image`, most specific registry key first. */
export function credentialsFor(secrets: Secret[], image: string): AuthConfig[] {
  const found: { key: string; auth: AuthConfig }[] = [];
  for (const secret of secrets) {
    for (const [key, e] of Object.entries(entriesOf(secret))) {
      if (!keyCovers(key, image)) continue;
      found.push({ key: registryKey(key), auth: { username: e.username, password: e.password, auth: e.auth, identityToken: e.identitytoken, registryToken: e.registrytoken, serverAddress: key } });
    }
  }
  return found.sort((a, b) => b.key.length - a.key.length).map((f) => f.auth);
}

function entriesOf(secret: Secret): Record<string, DockerConfigEntry> {
  const decode = (name: string) => {
    const raw = secret.data?.[name];
    return raw === undefined ? undefined : JSON.parse(Buffer.from(raw, 'base64').toString()) as Record<string, unknown>;
  };
  try {
    if (secret.type === 'kubernetes.io/dockerconfigjson') return (decode('.dockerconfigjson')?.auths ?? {}) as Record<string, DockerConfigEntry>;
    if (secret.type === 'kubernetes.io/dockercfg') return (decode('.dockercfg') ?? {}) as Record<string, DockerConfigEntry>;
  } catch {
    // a malformed docker config offers no credentials, as kubelet skips it
  }
  return {};
}
