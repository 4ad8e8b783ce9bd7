/**
 * The projected volumes of the pods on the simulated nodes (docs/design/authorization.md §16): for a
 * `serviceAccountToken` source the node asks TokenRequest for a token bound to the pod (as the
 * kubelet's token manager does, renewed once 80% of its life has passed), a `configMap` source
 * takes the ConfigMap's keys (`kube-root-ca.crt`'s `ca.crt`), a `downwardAPI` source the pod's
 * metadata. The files are what `kubectl exec ... cat` reads under the volume's mount path.
 */
import { ServiceAccounts } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import type { Clock } from '../../machinery/clock.js';
import type { Pod } from '../../api/core/index.js';
import type { ConfigSources } from './config/config-sources.js';

interface Projection {
  serviceAccountToken?: { path: string; audience?: string; expirationSeconds?: number };
  configMap?: { name: string; items?: { key: string; path: string }[] };
  downwardAPI?: { items?: { path: string; fieldRef?: { fieldPath: string } }[] };
}

interface IssuedToken { token: string; renewAtMs: number }

export class PodTokens {
  /** By pod uid, then `<volume>/<path>`. */
  private readonly volumeFiles = new Map<string, Map<string, string>>();
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly clock: Clock, private readonly configSources: ConfigSources) {}

  /** Fills (or renews) the files of the pod's projected volumes; a failed request is retried at the next sync. */
  async ensure(pod: Pod, client: Client): Promise<void> {
    const uid = pod.metadata.uid!;
    const files = new Map<string, string>();
    for (const volume of pod.spec.volumes ?? []) {
      const sources = (volume.projected as { sources?: Projection[] } | undefined)?.sources;
      for (const source of sources ?? []) {
        for (const [path, content] of await this.sourceFiles(pod, source, `${uid}/${volume.name}`, client)) files.set(`${volume.name}/${path}`, content);
      }
    }
    if (files.size > 0) this.volumeFiles.set(uid, files);
  }

  /** The files a container sees: each projected file under the container's mount of its volume. */
  containerFiles(pod: Pod, container: string): Map<string, string> {
    const out = new Map<string, string>();
    const files = this.volumeFiles.get(pod.metadata.uid ?? '');
    const spec = [...(pod.spec.initContainers ?? []), ...pod.spec.containers].find((c) => c.name === container);
    if (!files || !spec) return out;
    for (const mount of spec.volumeMounts ?? []) {
      for (const [key, content] of files) {
        if (key.startsWith(`${mount.name}/`)) out.set(`${mount.mountPath}/${key.slice(mount.name.length + 1)}`, content);
      }
    }
    return out;
  }

  forget(uid: string): void {
    this.volumeFiles.delete(uid);
    for (const key of this.tokens.keys()) if (key.startsWith(`${uid}/`)) this.tokens.delete(key);
  }

  private async sourceFiles(pod: Pod, source: Projection, key: string, client: Client): Promise<[string, string][]> {
    if (source.serviceAccountToken) {
      const t = source.serviceAccountToken;
      return [[t.path, await this.token(pod, `${key}/${t.path}`, t.audience, t.expirationSeconds ?? 3600, client)]];
    }
    if (source.configMap) {
      const cm = (await this.configSources.objects(pod.metadata.namespace ?? 'default'))?.configMap(source.configMap.name);
      const data = (cm?.data ?? {}) as Record<string, string>;
      const items = source.configMap.items ?? Object.keys(data).map((k) => ({ key: k, path: k }));
      return items.filter((i) => data[i.key] !== undefined).map((i) => [i.path, data[i.key]]);
    }
    const fields: Record<string, string | undefined> = { 'metadata.namespace': pod.metadata.namespace, 'metadata.name': pod.metadata.name, 'metadata.uid': pod.metadata.uid };
    return (source.downwardAPI?.items ?? []).flatMap((i) => (i.fieldRef && fields[i.fieldRef.fieldPath] !== undefined ? [[i.path, fields[i.fieldRef.fieldPath]!]] : []));
  }

  private async token(pod: Pod, key: string, audience: string | undefined, expirationSeconds: number, client: Client): Promise<string> {
    const held = this.tokens.get(key);
    if (held && this.clock.now() < held.renewAtMs) return held.token;
    const request = {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
      spec: { audiences: audience ? [audience] : [], expirationSeconds, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid } },
    };
    const answer = await client.createSubresource(ServiceAccounts, pod.metadata.namespace, pod.spec.serviceAccountName || 'default', 'token', request) as { status: { token: string } };
    const issued = { token: answer.status.token, renewAtMs: this.clock.now() + expirationSeconds * 800 };
    this.tokens.set(key, issued);
    return issued.token;
  }
}
