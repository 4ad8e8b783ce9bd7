/** `--max-workers-for-pull-image`: at most that many pulls at once on the node (-1 or less: no limit). */
export class PullSlots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Resolves with a release function once a slot is free (or false when `signal` aborts first). */
  acquire(signal: AbortSignal): Promise<(() => void) | false> {
    if (this.max < 0 || this.used < this.max) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      const grant = () => { signal.removeEventListener('abort', abort); resolve(this.take()); };
      const abort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      };
      signal.addEventListener('abort', abort, { once: true });
      this.waiting.push(grant);
    });
  }

  private take(): () => void {
    this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
      this.waiting.shift()?.();
    };
  }
}
