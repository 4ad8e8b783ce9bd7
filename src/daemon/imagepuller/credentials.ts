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
import { credentialsFor } from '../cri/registry-auth.js';
import type { AuthConfig } from '../cri/types.js';

export interface SecretRef { namespace?: string; name?: string }

const cacheMs = 5 * 60_000;

export class PullCredentials {
  private readonly cache = new Map<string, { secret?: Secret; at: number }>();

  constructor(private readonly d: { client: Client; clock: Clock }) {}

  /** Credentials for `image` from `refs`, most specific registry key first; refused references are reported. */
  async forImage(image: string, refs: SecretRef[]): Promise<{ auths: AuthConfig[]; refused: string[] }> {
    const secrets: Secret[] = [];
    const refused: string[] = [];
    for (const ref of refs) {
      if (ref.namespace !== DaemonConfigNamespace) {
        refused.push(`${ref.namespace}/${ref.name}`);
        continue;
      }
      const secret = await this.secret(ref.name ?? '');
      if (secret) secrets.push(secret);
    }
    return { auths: credentialsFor(secrets, image), refused };
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
