/**
 * The credentials a kubelet offers the registry for one image (§10): entries of the pod's
 * imagePullSecrets (`kubernetes.io/dockerconfigjson` or the older `dockercfg`) whose registry key
 * covers the image, most specific first, as kubelet's credential keyring orders them. The kubelet
 * tries each until a pull succeeds; with none it pulls anonymously. A missing secret is skipped.
 * Errors read as kubelet shows a CRI error: `rpc error: code = <code> desc = <message>`.
 */
import { Secrets } from '../../../api/resource-type.js';
import type { Client } from '../../../client/client.js';
import { credentialsFor } from '../../../daemon/cri/registry-auth.js';
import { CriError, type ImageService } from '../../../daemon/cri/services.js';
import type { AuthConfig } from '../../../daemon/cri/types.js';
import { isNotFound } from '../../../machinery/errors.js';
import type { Pod, Secret } from '../../../api/core/index.js';

export { keyCovers, registryKey } from '../../../daemon/cri/registry-auth.js';

export async function pullCredentials(client: Client, pod: Pod, image: string): Promise<AuthConfig[]> {
  const secrets: Secret[] = [];
  for (const ref of pod.spec.imagePullSecrets ?? []) {
    if (!ref.name) continue;
    try {
      secrets.push(await client.get<Secret>(Secrets, pod.metadata.namespace ?? 'default', ref.name));
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  return credentialsFor(secrets, image);
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
