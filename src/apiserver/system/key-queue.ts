/**
 * A small de-duplicating queue of keys processed one at a time, with delayed re-queueing:
 * the level-triggered shape of a controller without the full runtime (system loops use it).
 */
import { logger } from '../../machinery/log.js';

const log = logger('system');

export class KeyQueue {
  private readonly pending = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private running = false;
  private stopped = false;
  private idle: Promise<void> = Promise.resolve();

  constructor(private readonly process: (key: string) => Promise<number | void>) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.running) this.idle = this.run();
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped || this.timers.has(key)) return;
    this.timers.set(key, setTimeout(() => { this.timers.delete(key); this.add(key); }, ms));
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.pending.size > 0 && !this.stopped) {
      const key = this.pending.values().next().value as string;
      this.pending.delete(key);
      try {
        const retryMs = await this.process(key);
        if (typeof retryMs === 'number') this.addAfter(key, retryMs);
      } catch (e) {
        log.error({ key, err: e }, 'system controller error');
        this.addAfter(key, 1000);
      }
    }
    this.running = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    await this.idle;
  }
}
