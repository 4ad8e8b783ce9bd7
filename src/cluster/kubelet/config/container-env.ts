/**
 * The container environment the kubelet builds before creating a container (makeEnvironmentVariables),
 * for the parts that can fail: `envFrom` ConfigMaps and Secrets, and `env[].valueFrom` ConfigMap and
 * Secret keys (§16). A missing object or key that is not `optional` is a config error with kubelet's
 * message, shown as `waiting: CreateContainerConfigError`; optional ones are skipped. `fieldRef` to
 * the pod's metadata (name, namespace, uid, a label or annotation: an absent key reads as empty) and
 * to spec.nodeName/serviceAccountName reads the pod as it is when the container is created, as the
 * kubelet does (env-from-metadata restarts rely on it); other sources (status fields, resources) are
 * not simulated and leave the variable out.
 */
import type { KeyValue } from '../../../daemon/cri/types.js';
import type { ConfigMap, Container, EnvVar, Pod, Secret } from '../../../api/core/index.js';

/** The ConfigMaps and Secrets of the pod's namespace, by name. */
export interface EnvObjects {
  configMap(name: string): ConfigMap | undefined;
  secret(name: string): Secret | undefined;
}

export class ConfigError extends Error {}

/** Whether the container's environment refers to any ConfigMap or Secret. */
export function refersToConfigObjects(container: Container): boolean {
  return (container.envFrom ?? []).some((f) => f.configMapRef || f.secretRef)
    || (container.env ?? []).some((e) => e.valueFrom?.configMapKeyRef || e.valueFrom?.secretKeyRef);
}

const decode = (b64: string): string => Buffer.from(b64, 'base64').toString('utf8');

function envFromVars(container: Container, objects: EnvObjects): KeyValue[] {
  const out: KeyValue[] = [];
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const cm = objects.configMap(source.configMapRef.name ?? '');
      if (!cm) {
        if (source.configMapRef.optional) continue;
        throw new ConfigError(`configmap "${source.configMapRef.name}" not found`);
      }
      for (const [key, value] of Object.entries(cm.data ?? {})) out.push({ key: prefix + key, value });
    } else if (source.secretRef) {
      const secret = objects.secret(source.secretRef.name ?? '');
      if (!secret) {
        if (source.secretRef.optional) continue;
        throw new ConfigError(`secret "${source.secretRef.name}" not found`);
      }
      for (const [key, value] of Object.entries(secret.data ?? {})) out.push({ key: prefix + key, value: decode(value) });
    }
  }
  return out;
}

/** A `fieldRef` the kubelet resolves from the pod object; undefined when not simulated. */
function fieldValue(pod: Pod, fieldPath: string): string | undefined {
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (m) return pod.metadata[m[1] as 'labels' | 'annotations']?.[m[2]!] ?? '';
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata.name, 'metadata.namespace': pod.metadata.namespace, 'metadata.uid': pod.metadata.uid,
    'spec.nodeName': pod.spec.nodeName, 'spec.serviceAccountName': pod.spec.serviceAccountName,
  };
  return fields[fieldPath];
}

/** One `env` entry's value; undefined when it is left out (optional and missing, or not simulated). */
function envValue(v: EnvVar, pod: Pod, objects: EnvObjects): string | undefined {
  const namespace = pod.metadata.namespace ?? 'default';
  if (!v.valueFrom) return v.value ?? '';
  if (v.valueFrom.fieldRef) return fieldValue(pod, v.valueFrom.fieldRef.fieldPath);
  const cmRef = v.valueFrom.configMapKeyRef;
  if (cmRef) {
    const cm = objects.configMap(cmRef.name ?? '');
    if (!cm) {
      if (cmRef.optional) return undefined;
      throw new ConfigError(`configmap "${cmRef.name}" not found`);
    }
    const value = cm.data?.[cmRef.key];
    if (value === undefined && !cmRef.optional) throw new ConfigError(`couldn't find key ${cmRef.key} in ConfigMap ${namespace}/${cmRef.name}`);
    return value;
  }
  const secretRef = v.valueFrom.secretKeyRef;
  if (secretRef) {
    const secret = objects.secret(secretRef.name ?? '');
    if (!secret) {
      if (secretRef.optional) return undefined;
      throw new ConfigError(`secret "${secretRef.name}" not found`);
    }
    const value = secret.data?.[secretRef.key];
    if (value === undefined && !secretRef.optional) throw new ConfigError(`couldn't find key ${secretRef.key} in Secret ${namespace}/${secretRef.name}`);
    return value === undefined ? undefined : decode(value);
  }
  return undefined;
}

/** The container's environment (envFrom first, env entries override); throws ConfigError. */
export function containerEnv(pod: Pod, container: Container, objects: EnvObjects): KeyValue[] {
  const vars = new Map<string, string>();
  for (const { key, value } of envFromVars(container, objects)) vars.set(key, value);
  for (const v of container.env ?? []) {
    const value = envValue(v, pod, objects);
    if (value !== undefined) vars.set(v.name, value);
  }
  return [...vars].map(([key, value]) => ({ key, value }));
}
