/**
 * Test kit: a kubelet for the chart's Helm hook pods. Simulated nodes only pretend to run a
 * container, so with the scheduler stopped the hook Job's pod stays unscheduled; this runs its
 * `kruise` command for real, as the pod's ServiceAccount (pod-identity.ts), and writes the outcome
 * into the pod's status, which the Job controller and Helm then act on.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { kubectlFor } from './kubectl.js';
import { podIdentity } from './pod-identity.js';

type Obj = Record<string, any>; // any: kubectl's JSON output

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/kruise.js');

export interface HookRun { pod: string; code: number; output: string }

/** Runs each new pod labelled `selector` in `namespace` until `stop()`; resolves the runs so far. */
export function runHookPods(kubectl: ReturnType<typeof kubectlFor>, adminKubeconfig: string, namespace: string, selector: string, dir: string) {
  const runs: HookRun[] = [];
  const seen = new Set<string>();
  let stopped = false;
  const once = async () => {
    const r = await kubectl(['get', 'pods', '-n', namespace, '-l', selector, '-o', 'json']);
    for (const pod of r.code === 0 ? (JSON.parse(r.stdout).items as Obj[]) : []) {
      if (seen.has(pod.metadata.uid) || pod.status?.phase !== 'Pending') continue;
      seen.add(pod.metadata.uid);
      const asPod = await podIdentity(kubectl, adminKubeconfig, pod.spec.serviceAccountName, namespace, path.join(dir, pod.metadata.uid));
      const container = pod.spec.containers[0];
      const outcome = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(process.execPath, [bin, ...(container.args as string[])], { env: { ...process.env, ...asPod.env }, timeout: 60_000 }, (e, stdout, stderr) => {
          resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
        });
      });
      runs.push({ pod: pod.metadata.name, ...outcome });
      const now = new Date().toISOString();
      const status = {
        phase: outcome.code === 0 ? 'Succeeded' : 'Failed',
        containerStatuses: [{
          name: container.name, image: container.image, imageID: '', ready: false, restartCount: 0,
          state: { terminated: { exitCode: outcome.code, reason: outcome.code === 0 ? 'Completed' : 'Error', startedAt: now, finishedAt: now } },
        }],
      };
      await kubectl(['patch', 'pod', pod.metadata.name, '-n', namespace, '--subresource=status', '--type', 'merge', '-p', JSON.stringify({ status })]);
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await once().catch(() => undefined);
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return { runs, stop: async () => { stopped = true; await loop; return runs; } };
}
