/**
 * `kubectl kruise set env TYPE/NAME [KEY=VAL ...] [KEY- ...]` (docs/design/manager.md §12), as kubectl's
 * `set env`: `-e/--env`, `KEY-` removes, `--from=configmap/N|secret/N` adds each key as a reference
 * (with `--prefix`, `--keys`), `-c/--containers` (a glob) picks containers (a warning when none
 * matches), `--list` prints the resulting env; no change writes and prints nothing.
 */
import type { Container, EnvVar } from '../../api/core/index.js';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Secrets } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { containerGlob, emit, workloadTarget, type WriteFlags } from './target.js';

export interface SetEnvOptions extends WriteFlags {
  env: string[]; containers: string; from?: string; prefix?: string; keys?: string[]; list?: boolean; overwrite: boolean;
}

function parseEnv(args: string[]): { set: EnvVar[]; remove: string[] } {
  const set: EnvVar[] = []; const remove: string[] = [];
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) set.push({ name: a.slice(0, eq), value: a.slice(eq + 1) });
    else if (a.endsWith('-') && a.length > 1) remove.push(a.slice(0, -1));
    else throw new Error(`environment variables must be of the form key=value and can only contain letters, numbers, and underscores; got "${a}"`);
  }
  return { set, remove };
}

/** `--from=configmap/N` or `secret/N`: one reference per key, sorted (kubectl walks a Go map, in no order). */
async function envFrom(t: ReturnType<typeof workloadTarget>, o: SetEnvOptions, warn: (line: string) => void): Promise<EnvVar[]> {
  if (!o.from) return [];
  const [typeName, name] = o.from.split('/', 2) as [string, string | undefined];
  const isSecret = ['secret', 'secrets'].includes(typeName.toLowerCase());
  if (!name || (!isSecret && !['configmap', 'configmaps', 'cm'].includes(typeName.toLowerCase()))) throw new Error(`unsupported --from resource "${o.from}": use configmap/NAME or secret/NAME`);
  const source = await t.client.get<KObject & { data?: Record<string, string> }>(isSecret ? Secrets : ConfigMaps, t.namespace, name);
  const keys = Object.keys(source.data ?? {}).filter((k) => !o.keys?.length || o.keys.includes(k)).sort();
  const ref = isSecret ? 'secretKeyRef' : 'configMapKeyRef';
  return keys.map((key) => {
    const envName = key.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
    if (envName !== key.toUpperCase()) warn(`Warning: key ${key} transferred to ${envName}`);
    return { name: `${o.prefix ?? ''}${envName}`, valueFrom: { [ref]: { name, key } } };
  });
}

/** kubectl's `--list` lines for one variable. */
function listLine(e: EnvVar): string {
  const from = e.valueFrom as Record<string, { name?: string; key?: string; fieldPath?: string; resource?: string }> | undefined;
  if (!from) return `${e.name}=${e.value ?? ''}`;
  if (from.configMapKeyRef) return `# ${e.name} from configmap ${from.configMapKeyRef.name}, key ${from.configMapKeyRef.key}`;
  if (from.secretKeyRef) return `# ${e.name} from secret ${from.secretKeyRef.name}, key ${from.secretKeyRef.key}`;
  if (from.fieldRef) return `# ${e.name} from field path ${from.fieldRef.fieldPath}`;
  return `# ${e.name} from resource ${from.resourceFieldRef?.resource ?? ''}`;
}


export async function runSetEnv(ref: string, args: string[], o: SetEnvOptions, print = console.log, warn = console.error): Promise<void> {
  if (o.list && o.output) throw new Error('--list and --output may not be specified together');
  const { set, remove } = parseEnv([...o.env, ...args]);
  const t = workloadTarget([ref], o);
  const fromSource = await envFrom(t, o, warn);
  if (!o.list && set.length + remove.length + fromSource.length === 0) throw new Error('at least one environment variable must be provided');
  const apply = (c: Container): EnvVar[] => {
    const env = (c.env ?? []).filter((e) => !remove.includes(e.name));
    for (const e of [...set, ...fromSource]) {
      const at = env.findIndex((x) => x.name === e.name);
      if (at < 0) env.push(e);
      else if (o.overwrite) env[at] = e;
      else throw new Error(`'${e.name}' already has a value (${env[at]!.value ?? ''}), and --overwrite is false`);
    }
    return env;
  };
  const { object, changed } = await t.edit((w) => {
    const spec = w.spec.template.spec!;
    const matched = [...(spec.initContainers ?? []), ...spec.containers].filter((c) => containerGlob(o.containers).test(c.name));
    if (matched.length === 0) warn(`Warning: ${t.kind.type.kind}/${t.name} does not have any containers matching "${o.containers}"`);
    if (o.list) {
      for (const c of matched) {
        print(`# ${t.kind.type.kind} ${t.name}, container ${c.name}`);
        for (const e of apply(c)) print(listLine(e));
      }
      return false;
    }
    let changes = false;
    for (const c of matched) {
      const env = apply(c);
      if (deepEqual(env, c.env ?? [])) continue;
      changes = true;
      if (env.length) c.env = env; else delete c.env;
    }
    return changes;
  });
  if (changed) emit(t.kind.type, object, 'env updated', o, print);
}
