/**
 * Registry credentials for one pull (docs/design/image-pulling.md §6.3): the NodeImage names Secret
 * copies in the daemon config namespace, and only there does the daemon look (its Role allows
 * nothing else; a reference elsewhere is refused, never read). Entries of dockerconfigjson or
 * dockercfg Secrets whose registry key covers the image are offered most specific first. Secrets
 * are fetched by name and kept five minutes.
 */
import type { Secret } from '../../api/core/index.js';
import { Secrets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { DaemonConfigNamespace } from '../../control/imagejob/index.js';
import type { Clock } from '../../machinery/clock.js';
import { isNotFound } from '../../machinery/errors.js';
import { parseImage } from '../cri/image-ref.js';
import type { AuthConfig } from '../cri/types.js';

interface DockerConfigEntry { username?: string; password?: string; auth?: string; identitytoken?: string; registrytoken?: string }
export interface SecretRef { namespace?: string; name?: string }

const cacheMs = 5 * 60_000;

/** `https://index.docker.io/v1/` → `docker.io`. */
function registryKey(key: string): string {
  const bare = key.replace(/^[a-z]+:\/\//, '').replace(/\/v[12]\/?$/, '').replace(/\/+$/, '');
  return bare.replace(/^(index\.docker\.io|registry-1\.docker\.io)(?=\/|$)/, 'docker.io');
}

function covers(key: string, image: string): boolean {
  const [host, ...path] = registryKey(key).split('/');
  const [repoHost, ...repoPath] = parseImage(image).repository.split('/');
  return host === repoHost && path.every((segment, i) => repoPath[i] === segment);
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
    // a malformed docker config offers nothing
  }
  return {};
}

export class PullCredentials {
  private readonly cache = new Map<string, { secret?: Secret; at: number }>();

  constructor(private readonly d: { client: Client; clock: Clock }) {}

  /** Credentials for `image` from `refs`, most specific registry key first; refused references are reported. */
  async forImage(image: string, refs: SecretRef[]): Promise<{ auths: AuthConfig[]; refused: string[] }> {
    const found: { key: string; auth: AuthConfig }[] = [];
    const refused: string[] = [];
    for (const ref of refs) {
      if (ref.namespace !== DaemonConfigNamespace) {
        refused.push(`${ref.namespace}/${ref.name}`);
        continue;
      }
      const secret = await this.secret(ref.name ?? '');
      for (const [key, e] of Object.entries(secret ? entriesOf(secret) : {})) {
        if (!covers(key, image)) continue;
        found.push({ key: registryKey(key), auth: { username: e.username, password: e.password, auth: e.auth, identityToken: e.identitytoken, registryToken: e.registrytoken, serverAddress: key } });
      }
    }
    return { auths: found.sort((a, b) => b.key.length - a.key.length).map((f) => f.auth), refused };
  }

  private async secret(name: string): Promise<Secret | undefined> {
    const hit = this.cache.get(name);
    if (hit && this.d.clock.now() - hit.at < cacheMs) return hit.secret;
    let secret: Secret | undefined;
    try {
      secret = await this.d.client.get<Secret>(Secrets, DaemonConfigNamespace, name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    this.cache.set(name, { secret, at: this.d.clock.now() });
    return secret;
  }
}
