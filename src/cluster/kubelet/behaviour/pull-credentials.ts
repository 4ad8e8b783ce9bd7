/**
 * The credentials a kubelet offers the registry for one image (§10): entries of the pod's
 * imagePullSecrets (`kubernetes.io/dockerconfigjson` or the older `dockercfg`) whose registry key
 * covers the image, most specific first, as kubelet's credential keyring orders them. The kubelet
 * tries each until a pull succeeds; with none it pulls anonymously. A missing secret is skipped.
 * Errors read as kubelet shows a CRI error: `rpc error: code = <code> desc = <message>`.
 */
import { Secrets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { parseImage } from '../../../daemon/cri/image-ref.js';
import { CriError, type ImageService } from '../../../daemon/cri/services.js';
import type { AuthConfig } from '../../../daemon/cri/types.js';
import { isNotFound } from '../../../machinery/errors.js';
import { globMatcher } from './glob.js';
import type { Pod, Secret } from '../../../api/core/index.js';

interface DockerConfigEntry { username?: string; password?: string; auth?: string; identitytoken?: string; registrytoken?: string }

/** `https://index.docker.io/v1/` → `docker.io`; `registry.example.com:5000/team/` → `registry.example.com:5000/team`. */
export function registryKey(key: string): string {
  const bare = key.replace(/^[a-z]+:\/\//, '').replace(/\/v[12]\/?$/, '').replace(/\/+$/, '');
  return bare.replace(/^(index\.docker\.io|registry-1\.docker\.io)(?=\/|$)/, 'docker.io');
}

/** Whether a registry key covers the image's repository (host globs like `*.example.com` allowed). */
export function keyCovers(key: string, image: string): boolean {
  const [host, ...path] = registryKey(key).split('/');
  const [repoHost, ...repoPath] = parseImage(image).repository.split('/');
  if (!globMatcher(host)(repoHost)) return false;
  return path.every((segment, i) => repoPath[i] === segment);
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

export async function pullCredentials(client: Client, pod: Pod, image: string): Promise<AuthConfig[]> {
  const found: { key: string; auth: AuthConfig }[] = [];
  for (const ref of pod.spec.imagePullSecrets ?? []) {
    if (!ref.name) continue;
    let secret: Secret;
    try {
      secret = await client.get<Secret>(Secrets, pod.metadata.namespace ?? 'default', ref.name);
    } catch (e) {
      if (isNotFound(e)) continue;
      throw e;
    }
    for (const [key, entry] of Object.entries(entriesOf(secret))) {
      if (!keyCovers(key, image)) continue;
      found.push({ key: registryKey(key), auth: { username: entry.username, password: entry.password, auth: entry.auth, identityToken: entry.identitytoken, registryToken: entry.registrytoken, serverAddress: key } });
    }
  }
  return found.sort((a, b) => b.key.length - a.key.length).map((f) => f.auth);
}

const grpcText = (e: unknown): string =>
  e instanceof CriError && !e.message.startsWith('rpc error:') ? `rpc error: code = ${e.code} desc = ${e.message}` : (e as Error).message;

/** Pulls `image` with each matching credential in turn until one works, else anonymously. */
export async function pullWithCredentials(images: ImageService, client: Client, pod: Pod, image: string): Promise<void> {
  const credentials: (AuthConfig | undefined)[] = await pullCredentials(client, pod, image);
  const failures: string[] = [];
  for (const auth of credentials.length > 0 ? credentials : [undefined]) {
    try {
      await images.pullImage({ image }, auth);
      return;
    } catch (e) {
      failures.push(grpcText(e));
    }
  }
  throw new Error(failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`);
}
