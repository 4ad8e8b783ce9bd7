/**
 * Pull secrets as the daemons get them (docs/design/image-pulling.md §4.2): each Secret a job names
 * is copied into the daemon config namespace, the copy remembering its source and the jobs using
 * it, and NodeImages reference the copy. A daemon's Role reads Secrets there and nowhere else.
 * Copies a job no longer wants are released; the last job out deletes the copy.
 */
import { randomBytes } from 'node:crypto';
import type { Secret } from '../../api/core/index.js';
import {
  ImagePullSecretModeAnnotation, ImagePullSecretModeBatch, ImagePullSecretReferencesAnnotation, ImagePullSecretSourceKeyAnnotation,
} from '../../api/kruise/ops/imagepulljob.js';
import { Secrets } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { DaemonConfigNamespace, type ImagePullJobObject } from '../../control/imagejob/index.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import type { Informer } from '../../runtime/informer.js';
import type { SecretRef } from './node-image-tag.js';
import { byName } from '../../machinery/order.js';

export interface SyncedSecrets {
  refs: SecretRef[];
  /** Names the job lists that do not exist in its namespace. */
  missing: string[];
}

const referencesOf = (s: Secret): string[] => (s.metadata.annotations?.[ImagePullSecretReferencesAnnotation] ?? '').split(',').filter(Boolean);
const keyOf = (job: ImagePullJobObject) => `${job.metadata.namespace}/${job.metadata.name}`;

export class PullSecretCopies {
  /** Copies created but maybe not in the cache yet, by name. */
  private readonly created = new Map<string, Secret>();

  constructor(private readonly d: { client: Client; secrets: Informer<Secret> }) {}

  async sync(job: ImagePullJobObject): Promise<SyncedSecrets> {
    const ns = job.metadata.namespace!;
    const names = job.spec?.pullSecrets ?? [];
    if (ns === DaemonConfigNamespace) return { refs: names.map((name) => ({ namespace: ns, name })), missing: [] };
    const refs: SecretRef[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const source = this.d.secrets.get(ns, name);
      if (!source) {
        missing.push(name);
        continue;
      }
      const copy = await this.ensureCopy(job, source);
      refs.push({ namespace: DaemonConfigNamespace, name: copy.metadata.name!, mode: copy.metadata.annotations?.[ImagePullSecretModeAnnotation] });
    }
    await this.release(job, new Set(refs.map((r) => r.name)));
    return { refs, missing };
  }

  /** Drops the job from every copy it uses except `keep`; a copy left unreferenced is deleted. */
  async release(job: ImagePullJobObject, keep = new Set<string>()): Promise<void> {
    const key = keyOf(job);
    for (const copy of this.copies()) {
      const refs = referencesOf(copy);
      if (keep.has(copy.metadata.name!) || !refs.includes(key)) continue;
      const rest = refs.filter((r) => r !== key);
      try {
        if (rest.length === 0) await this.d.client.delete(Secrets, DaemonConfigNamespace, copy.metadata.name!, { preconditions: { uid: copy.metadata.uid } });
        else await this.d.client.update(Secrets, withAnnotation(copy, ImagePullSecretReferencesAnnotation, rest.join(',')));
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      this.created.delete(copy.metadata.name!);
    }
  }

  private async ensureCopy(job: ImagePullJobObject, source: Secret): Promise<Secret> {
    const sourceKey = `${source.metadata.namespace}/${source.metadata.name}`;
    const key = keyOf(job);
    const candidates = this.copies().filter((c) => c.metadata.annotations?.[ImagePullSecretSourceKeyAnnotation] === sourceKey)
      .sort(byName);
    const copy = candidates.find((c) => referencesOf(c).includes(key)) ?? candidates[0];
    if (!copy) {
      const created = await this.d.client.create<Secret>(Secrets, {
        apiVersion: 'v1', kind: 'Secret', type: source.type, data: source.data,
        metadata: {
          name: `${source.metadata.name}-${randomBytes(3).toString('hex')}`, namespace: DaemonConfigNamespace, labels: source.metadata.labels,
          annotations: {
            ...source.metadata.annotations, [ImagePullSecretSourceKeyAnnotation]: sourceKey, [ImagePullSecretReferencesAnnotation]: key,
            [ImagePullSecretModeAnnotation]: ImagePullSecretModeBatch,
          },
        },
      });
      this.created.set(created.metadata.name!, created);
      return created;
    }
    const refs = [...new Set([...referencesOf(copy), key])].sort();
    if (deepEqual(copy.data ?? {}, source.data ?? {}) && refs.join(',') === referencesOf(copy).join(',')) return copy;
    const updated = await this.d.client.update<Secret>(Secrets, { ...withAnnotation(copy, ImagePullSecretReferencesAnnotation, refs.join(',')), data: source.data });
    this.created.set(updated.metadata.name!, updated);
    return updated;
  }

  /** The copies in the config namespace: the cache, overlaid with our own newer writes. */
  private copies(): Secret[] {
    const cached = new Map(this.d.secrets.byIndex('namespace', DaemonConfigNamespace)
      .filter((s) => s.metadata.annotations?.[ImagePullSecretSourceKeyAnnotation]).map((s) => [s.metadata.name!, s]));
    for (const [name, own] of this.created) {
      const c = cached.get(name);
      if (c && Number(c.metadata.resourceVersion) >= Number(own.metadata.resourceVersion)) this.created.delete(name);
      else cached.set(name, own);
    }
    return [...cached.values()];
  }
}

function withAnnotation(s: Secret, key: string, value: string): Secret {
  return { ...s, metadata: { ...s.metadata, annotations: { ...s.metadata.annotations, [key]: value } } };
}
