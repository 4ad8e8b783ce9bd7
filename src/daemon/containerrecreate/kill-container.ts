/**
 * Stopping one container the way the kubelet's killContainer does (docs/design/container-recreate.md
 * §4.5): a `Killing` event on the pod, the preStop hook copied into the request, bounded by the grace
 * period, then CRI StopContainer with what is left of it but never less than 2 s. The kubelet then
 * starts the next attempt per the pod's restartPolicy. A failing hook is reported and the stop goes on.
 */
import type { ContainerRecreateRequest } from '../../api/kruise/ops/index.js';
import type { Clock } from '../../machinery/clock.js';
import type { RuntimeService } from '../cri/services.js';
import type { RuntimeContainer } from './container-view.js';

type PreStop = NonNullable<NonNullable<ContainerRecreateRequest['spec']>['containers'][number]['preStop']>;

/** Upstream's default when neither the request nor the pod named a grace period. */
export const defaultGraceSeconds = 30;
/** The kubelet never gives SIGTERM less than this. */
export const minimumGraceSeconds = 2;

export interface KillInput {
  runtime: RuntimeService;
  container: RuntimeContainer;
  preStop?: PreStop;
  /** The container's ports, for a hook naming its port. */
  ports?: { name?: string; containerPort: number }[];
  graceSeconds: number;
  clock: Clock;
  /** Records an event on the pod. */
  event(type: 'Normal' | 'Warning', reason: string, message: string): void;
}

export async function killContainer(k: KillInput, message: string): Promise<void> {
  k.event('Normal', 'Killing', message);
  let grace = k.graceSeconds;
  if (k.preStop) {
    const started = k.clock.now();
    const failure = await runPreStop(k, k.preStop);
    if (failure) k.event('Warning', 'FailedPreStopHook', `PreStopHook failed: ${failure}`);
    grace -= Math.floor((k.clock.now() - started) / 1000);
  }
  await k.runtime.stopContainer(k.container.id, Math.max(grace, minimumGraceSeconds));
}

/** The hook's failure, or undefined when it ran fine; never longer than the grace period. */
async function runPreStop(k: KillInput, hook: PreStop): Promise<string | undefined> {
  try {
    if (hook.exec?.command?.length) {
      if (!k.runtime.execSync) return undefined;
      const out = await k.runtime.execSync(k.container.id, hook.exec.command, k.graceSeconds);
      return out.exitCode === 0 ? undefined : `command '${hook.exec.command.join(' ')}' exited with ${out.exitCode}`;
    }
    if (hook.httpGet) return await httpPreStop(k, hook.httpGet);
    return undefined; // tcpSocket is not a lifecycle action kubelet runs
  } catch (e) {
    return (e as Error).message;
  }
}

type HttpGet = NonNullable<PreStop['httpGet']>;

/**
 * HTTP hooks go to `host`, else the pod's IP from its sandbox. Only loopback targets are dialled:
 * this build must never reach beyond the machine (§4.5); any other target reads as a failed hook,
 * which, as with the kubelet, does not hold the stop back.
 */
async function httpPreStop(k: KillInput, get: HttpGet): Promise<string | undefined> {
  const status = await k.runtime.podSandboxStatus(k.container.podSandboxId);
  const host = get.host || status.network?.ip || '';
  if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) return `http preStop to ${host} not attempted: only loopback targets are reachable`;
  const port = typeof get.port === 'number' ? get.port : k.ports?.find((p) => p.name === get.port)?.containerPort;
  if (port === undefined) return `named port ${String(get.port)} can not be resolved`;
  const scheme = (get.scheme ?? 'HTTP').toLowerCase();
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${get.path ?? '/'}`;
  const res = await fetch(url, { signal: AbortSignal.timeout(k.graceSeconds * 1000) });
  await res.body?.cancel();
  return res.status >= 200 && res.status < 400 ? undefined : `HTTP preStop ${url} answered ${res.status}`;
}
