/**
 * KRUISE_BENCH_PROFILE=<phase name part> takes a CPU profile of this process (the plane) over
 * every phase whose name contains it, into bench-results/<scenario>-<phase>.cpuprofile, to open in
 * Chrome DevTools (docs/design/performance.md §17). The manager then runs with `--cpu-prof` over its
 * whole life (managerProfileArgs); the phase's window, on the monotonic clock both profiles use, is
 * written beside the plane's profile so the manager's can be cut to it.
 */
import { Session } from 'node:inspector/promises';
import { mkdir, writeFile } from 'node:fs/promises';

export async function profilePhase(scenario: string, phase: string): Promise<() => Promise<string | undefined>> {
  const wanted = process.env.KRUISE_BENCH_PROFILE;
  if (!wanted || !phase.includes(wanted)) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const startUs = Number(process.hrtime.bigint() / 1000n);
  return async () => {
    const endUs = Number(process.hrtime.bigint() / 1000n);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await mkdir('bench-results', { recursive: true });
    const file = `bench-results/${scenario}-${phase.replace(/[^\w.-]+/g, '_')}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    await writeFile(`${file}.window.json`, JSON.stringify({ startUs, endUs }));
    return file;
  };
}

/** Node flags the manager gets when profiling (not allowed in NODE_OPTIONS). */
export const managerProfileArgs = () => (process.env.KRUISE_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench-results/manager-cpu'] : []);
