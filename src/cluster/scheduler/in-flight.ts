/**
 * Background API calls (bindings, status writes) with a limit: the loop waits for a free slot
 * before deciding the next pod, so a slow server slows scheduling down instead of piling up calls.
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>();
  private waiters: (() => void)[] = [];
  private open = false;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.running.size;
  }

  add(p: Promise<void>): void {
    this.running.add(p);
    void p.finally(() => {
      this.running.delete(p);
      this.waiters.shift()?.();
    });
  }

  /** Resolves once fewer than `limit` calls run (at once after `openAll`). */
  async slot(): Promise<void> {
    while (this.running.size >= this.limit && !this.open) await new Promise<void>((r) => this.waiters.push(r));
  }

  /** Stops limiting and wakes every waiter (shutdown). */
  openAll(): void {
    this.open = true;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves when every call started so far has settled. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}
