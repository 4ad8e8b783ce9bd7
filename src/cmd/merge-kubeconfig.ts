/**
 * `kruise up --update-kubeconfig`: the plane's cluster, user and context merged into the user's own
 * kubeconfig and made current, as `kind create cluster` does; entries of the same name are replaced,
 * everything else is kept. Written owner-only, like kubectl writes it.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

interface Named { name: string }
interface Kubeconfig { clusters?: Named[]; users?: Named[]; contexts?: Named[]; 'current-context'?: string; [key: string]: unknown }

/** The file kubectl writes to: the first entry of $KUBECONFIG, else ~/.kube/config. */
export function userKubeconfigPath(env: NodeJS.ProcessEnv): string {
  const first = env.KUBECONFIG?.split(path.delimiter).find(Boolean);
  return path.resolve(first ?? path.join(env.HOME ?? os.homedir(), '.kube', 'config'));
}

const upsert = (list: Named[] | undefined, entries: Named[] | undefined): Named[] => {
  const names = new Set((entries ?? []).map((e) => e.name));
  return [...(list ?? []).filter((e) => !names.has(e.name)), ...(entries ?? [])];
};

export function mergeKubeconfig(target: Kubeconfig, source: Kubeconfig): Kubeconfig {
  return {
    apiVersion: 'v1', kind: 'Config', preferences: {}, ...target,
    clusters: upsert(target.clusters, source.clusters), users: upsert(target.users, source.users), contexts: upsert(target.contexts, source.contexts),
    'current-context': source['current-context'],
  };
}

/** Merges the plane's kubeconfig at `from` into `into`; returns `into`. */
export async function mergeKruiseContext(from: string, into: string): Promise<string> {
  const source = parse(await readFile(from, 'utf8')) as Kubeconfig;
  let target: Kubeconfig = {};
  try {
    target = (parse(await readFile(into, 'utf8')) as Kubeconfig | null) ?? {};
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await mkdir(path.dirname(into), { recursive: true, mode: 0o700 });
  await writeFile(into, stringify(mergeKubeconfig(target, source)), { mode: 0o600 });
  return into;
}
