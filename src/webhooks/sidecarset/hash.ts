/**
 * The two SidecarSet hashes (annotations kruise.io/sidecarset-hash and ...-hash-without-image):
 * sha256 over `{"containers": ...}` (plus `"initContainers"` when some init container is a native
 * sidecar), hex, then mapped through the "safe" alphabet as apimachinery's SafeEncodeString does.
 * Keys are serialised sorted, so the values are self-consistent but not byte-equal to Go Kruise's
 * (which serialises struct field order). Exported for the pod injector and the controller.
 */
import { createHash } from 'node:crypto';
import { isObject } from '../../machinery/json.js';

const safeAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

function safeEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += safeAlphabet[s.charCodeAt(i) % safeAlphabet.length];
  return out;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value ?? null);
  const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

interface HashedSpec { containers?: unknown[]; initContainers?: unknown[] }

function hashOf(spec: HashedSpec, withoutImage: boolean): string {
  const strip = (list: unknown[] | undefined): unknown[] =>
    (list ?? []).map((c) => (withoutImage && isObject(c) ? { ...c, image: '' } : c));
  const body: Record<string, unknown> = { containers: strip(spec.containers) };
  const inits = spec.initContainers ?? [];
  if (inits.some((c) => isObject(c) && c.restartPolicy === 'Always')) body.initContainers = strip(inits);
  return safeEncode(createHash('sha256').update(canonicalJson(body)).digest('hex'));
}

export const sidecarSetHash = (spec: HashedSpec): string => hashOf(spec, false);
export const sidecarSetHashWithoutImage = (spec: HashedSpec): string => hashOf(spec, true);
