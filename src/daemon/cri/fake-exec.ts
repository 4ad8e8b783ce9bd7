/**
 * What a command run through ExecSync prints in a simulated container. No process runs, so only
 * commands that report the container's own configuration answer: `env` and `printenv` (no
 * operands) list the environment the container was created with, one `NAME=value` per line, as
 * the node daemon reads it to learn which label and annotation values a container started with
 * (docs/design/container-meta.md §3). `printenv NAME...` prints those values. Anything else
 * succeeds silently.
 */
import type { ContainerConfig } from './types.js';

/** The output of `cmd` in a running container created from `config`, and its exit code. */
export function fakeExecOutput(config: ContainerConfig, cmd: string[]): { stdout: string; exitCode: number } {
  const program = (cmd[0] ?? '').replace(/^.*\//, '');
  const envs = config.envs ?? [];
  if (program === 'env' && cmd.length === 1 || program === 'printenv' && cmd.length === 1) {
    return { stdout: envs.map((e) => `${e.key}=${e.value}\n`).join(''), exitCode: 0 };
  }
  if (program === 'printenv') {
    const values = cmd.slice(1).map((name) => envs.find((e) => e.key === name)?.value);
    return { stdout: values.filter((v) => v !== undefined).map((v) => `${v}\n`).join(''), exitCode: values.every((v) => v !== undefined) ? 0 : 1 };
  }
  return { stdout: '', exitCode: 0 };
}
