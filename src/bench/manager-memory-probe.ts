/**
 * Preloaded into the `kruise manager` of `bench:manager-memory` (`NODE_OPTIONS=--import <this>`):
 * on SIGUSR2 it writes the process's V8 heap figures to $KRUISE_MEMORY_PROBE_FILE, so the bench
 * can split the anonymous memory it reads in /proc into V8 heap and native (performance.md §15).
 */
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.KRUISE_MEMORY_PROBE_FILE;
if (file) {
  process.on('SIGUSR2', () => {
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { size: s.space_size, used: s.space_used_size }]));
    const h = v8.getHeapStatistics();
    const m = process.memoryUsage();
    const stats = { heapTotal: h.total_heap_size, heapUsed: h.used_heap_size, external: m.external, arrayBuffers: m.arrayBuffers, mallocedMemory: h.malloced_memory, spaces };
    writeFileSync(`${file}.tmp`, JSON.stringify(stats));
    writeFileSync(file, JSON.stringify(stats));
  });
}
