/**
 * kube-apiserver's ServiceAccount admission plugin on pod creation (docs/design/authorization.md
 * §16): the pod's ServiceAccount must exist (the `default` one is looked up ten times, 100-200 ms
 * apart, as it may not be created yet in a new namespace), and unless the pod or the account turns
 * automounting off, every container and init container that does not already mount
 * `/var/run/secrets/kubernetes.io/serviceaccount` mounts the projected `kube-api-access-<5>` volume.
 * Mirror pods and subresources are left alone.
 */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import { generateNameSuffix } from '../registry/create.js';
import type { AdmissionAttributes } from '../registry/context.js';
import type { RegistryReader } from '../registry/reader.js';

export const tokenMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';
const volumePrefix = 'kube-api-access-';
const mirrorAnnotation = 'kubernetes.io/config.mirror';
const defaultAttempts = 10;

interface Mount { name: string; mountPath: string; readOnly?: boolean }
interface Container { volumeMounts?: Mount[] }
interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  volumes?: { name: string }[];
  initContainers?: Container[];
  containers?: Container[];
}

/** The projected volume kube's TokenVolumeSource describes (3607 s: kube's warn-only bound token lifetime). */
export function tokenVolumeSource(): Record<string, unknown> {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
      { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
    ],
  };
}

export function serviceAccountAdmission(reader: RegistryReader, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  const accounts = reader.table.lookup('', 'v1', 'serviceaccounts')!;
  const lookup = async (namespace: string, name: string): Promise<KObject | undefined> => {
    const attempts = name === 'default' ? defaultAttempts : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await sleep(100 + Math.floor(Math.random() * 100));
      const sa = reader.getStored(accounts, namespace, name);
      if (sa) return sa;
    }
    return undefined;
  };
  return {
    async mutate(a: AdmissionAttributes): Promise<void> {
      const d = a.resource.definition;
      if (a.operation !== 'CREATE' || a.subresource || d.group !== '' || d.plural !== 'pods' || !a.object) return;
      const pod = a.object;
      if (pod.metadata.annotations?.[mirrorAnnotation] !== undefined) return;
      const spec = (pod.spec ??= {}) as PodSpec;
      const name = spec.serviceAccountName || 'default';
      const namespace = a.namespace ?? '';
      const sa = await lookup(namespace, name);
      if (!sa) {
        const podName = pod.metadata.name || pod.metadata.generateName || '';
        throw errors.forbidden(`pods "${podName}" is forbidden: error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`,
          { name: podName, kind: 'pods' });
      }
      const automount = spec.automountServiceAccountToken ?? (sa as { automountServiceAccountToken?: boolean }).automountServiceAccountToken ?? true;
      if (automount) mountToken(spec);
    },
  };
}

function mountToken(spec: PodSpec): void {
  const existing = (spec.volumes ?? []).find((v) => v.name.startsWith(volumePrefix));
  const volumeName = existing?.name ?? volumePrefix + generateNameSuffix();
  let needed = false;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === tokenMountPath)) continue;
    c.volumeMounts = [...(c.volumeMounts ?? []), { mountPath: tokenMountPath, name: volumeName, readOnly: true }];
    needed = true;
  }
  if (needed && !existing) spec.volumes = [...(spec.volumes ?? []), { name: volumeName, projected: tokenVolumeSource() } as { name: string }];
}
