/**
 * Pod annotations that script what the simulated containers do, so Job/BroadcastJob and sidecar
 * tests can make containers finish, fail or linger whatever their command says. Each takes a
 * per-container form (`<key>.<containerName>`) that wins over the pod-wide one:
 *
 *   kruise-ts.io/simulate-exit-code: "0"          exit with this code ...
 *   kruise-ts.io/simulate-run-seconds: "5"        ... this long after starting ("infinity": never)
 *   kruise-ts.io/simulate-termination-seconds: "20"  time to exit after SIGTERM (killed at the grace period)
 *   kruise-ts.io/simulate-start-delay-seconds: "2"   time from StartContainer to running
 *   kruise-ts.io/simulate-readiness-delay-seconds: "3"  time from running to ready
 *
 * They lay over what the command and the behaviour file say (docs/design/simulated-nodes.md §10).
 * A value that is not a number in range is a configuration error of that container
 * (CreateContainerConfigError), not of the node.
 */
import type { BehaviourSettings } from './behaviour/settings.js';
import type { Container, Pod } from '../../api/core/index.js';

export const SimulateAnnotations = {
  exitCode: 'kruise-ts.io/simulate-exit-code',
  runSeconds: 'kruise-ts.io/simulate-run-seconds',
  terminationSeconds: 'kruise-ts.io/simulate-termination-seconds',
  startDelaySeconds: 'kruise-ts.io/simulate-start-delay-seconds',
  readinessDelaySeconds: 'kruise-ts.io/simulate-readiness-delay-seconds',
} as const;

export type ContainerRole = 'init' | 'sidecar' | 'main';

export function roleOf(container: Container, isInit: boolean): ContainerRole {
  if (!isInit) return 'main';
  return container.restartPolicy === 'Always' ? 'sidecar' : 'init';
}

type Field = keyof typeof SimulateAnnotations;

/** Reads one annotation value; a string is the reason it is invalid. */
const parsers: Record<Field, (raw: string) => number | 'infinity' | string> = {
  exitCode: (raw) => (/^\s*\d+\s*$/.test(raw) && Number(raw) <= 255 ? Number(raw) : 'must be an integer from 0 to 255'),
  runSeconds: (raw) => (raw.trim() === 'infinity' ? 'infinity' : seconds(raw)),
  terminationSeconds: seconds,
  startDelaySeconds: seconds,
  readinessDelaySeconds: seconds,
};

function seconds(raw: string): number | string {
  const n = raw.trim() === '' ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : 'must be a non-negative number of seconds';
}

/** The annotation settings of one container, or why one of them is invalid. */
export function annotationSettings(pod: Pod, containerName: string): { settings: BehaviourSettings } | { error: string } {
  const annotations = pod.metadata.annotations ?? {};
  if (!anySimulateKey(annotations)) return { settings: {} };
  const settings: Record<string, unknown> = {};
  for (const field of Object.keys(SimulateAnnotations) as Field[]) {
    const podWide = SimulateAnnotations[field];
    const key = `${podWide}.${containerName}` in annotations ? `${podWide}.${containerName}` : podWide;
    const raw = annotations[key];
    if (raw === undefined) continue;
    const value = parsers[field](raw);
    if (typeof value === 'string' && value !== 'infinity') return { error: `invalid annotation ${key}: ${JSON.stringify(raw)} ${value}` };
    settings[field] = value;
  }
  return { settings: settings as BehaviourSettings };
}

const simulatePrefix = 'kruise-ts.io/simulate-';

/** Most pods set none: a look at the keys spares building and looking up every key (§24). */
function anySimulateKey(annotations: Record<string, string>): boolean {
  for (const key in annotations) if (key.startsWith(simulatePrefix)) return true;
  return false;
}
