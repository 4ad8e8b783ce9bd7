/**
 * KRUISE_BENCH_PROFILE=<phase name part> takes a CPU profile of this process (the plane) over
 * every phase whose name contains it, into bench-results/<scenario>-<phase>.cpuprofile, to open in
 * Chrome DevTools (docs/design/performance.md §17). The manager then runs with `--cpu-prof` over its
 * whole life (managerProfileArgs); the phase's window, on the monotonic clock both profiles use, is
 * written beside the plane's profile so the manager's can be cut to it.
 * KRUISE_BENCH_PROFILE_HEAP=1 also samples the plane's allocations over the phase, objects that
 * garbage collection took included, into `<same name>.heapprofile` (what the collector is paid for).
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
  const heap = process.env.KRUISE_BENCH_PROFILE_HEAP === '1';
  if (heap) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const startUs = Number(process.hrtime.bigint() / 1000n);
  return async () => {
    const endUs = Number(process.hrtime.bigint() / 1000n);
    const { profile } = await session.post('Profiler.stop');
    const allocations = heap ? (await session.post('HeapProfiler.stopSampling')).profile : undefined;
    session.disconnect();
    await mkdir('bench-results', { recursive: true });
    const file = `bench-results/${scenario}-${phase.replace(/[^\w.-]+/g, '_')}.cpuprofile`;
    await writeFile(file, JSON.stringify(profile));
    if (allocations) await writeFile(file.replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(allocations));
    await writeFile(`${file}.window.json`, JSON.stringify({ startUs, endUs }));
    return file;
  };
}

/** Node flags the manager gets when profiling (not allowed in NODE_OPTIONS). */
export const managerProfileArgs = () => (process.env.KRUISE_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench-results/manager-cpu'] : []);
