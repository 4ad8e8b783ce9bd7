/**
 * The interpreter's entry (§9): a container's command line, as the runtime would assemble it, read
 * into a process plan. `command` replaces the image's entrypoint and `args` its default command;
 * `$(VAR)` references to the container's literal env values are expanded as the kubelet does. An
 * image given only `args` runs them (shell images have no entrypoint; server images' entrypoints
 * conventionally `exec "$@"` a command and otherwise pass flags to the server).
 */
import { runCommand, type Arg } from './commands.js';
import { imageDefault } from './image-defaults.js';
import { planOf, runsUntilStopped, exitsAfter, UnknownCommand, type ProcessPlan } from './process.js';
import { runScript } from './shell-run.js';
import type { Container } from '../../../api/core/index.js';
import type { Transcript } from './transcript.js';

export type CommandReading =
  | { kind: 'plan'; plan: ProcessPlan; why: string }
  /** `commandGiven` false: no command and an image we do not know. */
  | { kind: 'unknown'; why: string; commandGiven: boolean };

/** The container's literal env values (values from secrets, fields or envFrom are unknown). */
export function literalEnv(container: Pick<Container, 'env'>): Map<string, string> {
  const env = new Map<string, string>();
  for (const e of container.env ?? []) if (typeof e.value === 'string') env.set(e.name, expandKubeVars(e.value, env));
  return env;
}

/** The kubelet's `$(VAR)` expansion: defined names are replaced, `$$` escapes, the rest stays. */
export function expandKubeVars(text: string, env: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name: string | undefined) => (name === undefined ? '$' : env.get(name) ?? whole));
}

/** `out`, when given, receives what the command writes (§20). */
export function readCommand(container: Pick<Container, 'command' | 'args' | 'image' | 'env' | 'stdin'>, out?: Transcript): CommandReading {
  const env = literalEnv(container);
  const stdinOpen = container.stdin === true;
  const image = imageDefault(container.image ?? '');
  const expand = (words?: string[]) => words?.map((w) => expandKubeVars(w, env));
  const command = expand(container.command);
  const args = expand(container.args);
  if (!command && !args) {
    if (image.kind === 'interactive') {
      return { kind: 'plan', plan: stdinOpen ? runsUntilStopped : exitsAfter(0, 0), why: `${image.name}'s default shell ${stdinOpen ? 'waits on its open stdin' : 'reads end of input and exits'}` };
    }
    if (image.kind === 'server') return { kind: 'plan', plan: runsUntilStopped, why: `${image.name} serves until stopped` };
    return { kind: 'unknown', why: `no command, and image ${image.name} is not one the simulator knows`, commandGiven: false };
  }
  const argv = command ? [...command, ...(args ?? [])] : args!;
  try {
    const outcome = runCommand(argv.map((text): Arg => ({ text, dynamic: false })), { stdinOpen, variables: env, runScript, out });
    return { kind: 'plan', plan: planOf(outcome), why: `the command ${JSON.stringify(argv.join(' '))}` };
  } catch (e) {
    if (!(e instanceof UnknownCommand)) throw e;
    if (!command && image.kind === 'server') return { kind: 'plan', plan: runsUntilStopped, why: `${image.name} serves with the arguments given` };
    return { kind: 'unknown', why: e.message, commandGiven: true };
  }
}
