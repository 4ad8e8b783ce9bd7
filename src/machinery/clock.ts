/**
 * The injected clock (kwok's `Clock`): everything that waits (queue delays, backoff, expectation
 * timeouts, lease renewal) asks a Clock, so tests advance a FakeClock instead of sleeping. It lives
 * in machinery, beside the work queue, because the API server's system controllers use both and
 * may not import the controller runtime.
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; returns a cancel function (calling it twice is harmless). */
  after(ms: number, fn: () => void): () => void;
}

const maxTimerMs = 2 ** 31 - 1;

export const realClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    // setTimeout fires at once beyond 2^31-1 ms (~24.8 days); `sleep 999d` must not. Chain instead.
    let timer: NodeJS.Timeout;
    const arm = (left: number): void => {
      timer = setTimeout(() => (left > maxTimerMs ? arm(left - maxTimerMs) : fn()), Math.min(Math.max(0, left), maxTimerMs));
    };
    arm(ms);
    return () => clearTimeout(timer);
  },
};

/** Resolves after `ms` on `clock`, or early (without rejecting) when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  let cancel: () => void = () => undefined;
  const timer = new Promise<void>((resolve) => { cancel = clock.after(ms, resolve); });
  return abortable(timer, undefined, signal).finally(() => cancel());
}

/** `promise`'s value, or `fallback` as soon as any signal aborts (or `promise` rejects). */
export function abortable<T>(promise: Promise<T>, fallback: T, ...signals: (AbortSignal | undefined)[]): Promise<T> {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) return Promise.resolve(fallback);
  return new Promise((resolve) => {
    const finish = (value: T) => {
      for (const s of live) s.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => finish(fallback);
    for (const s of live) s.addEventListener('abort', onAbort, { once: true });
    promise.then(finish, () => finish(fallback));
  });
}

/** Rejects with `onTimeout()` if `promise` has not settled after `ms` on `clock`. */
export function withTimeout<T>(clock: Clock, promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = clock.after(ms, () => reject(onTimeout()));
    promise.then(
      (value) => { cancel(); resolve(value); },
      (error: unknown) => { cancel(); reject(error); },
    );
  });
}

interface FakeTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that only moves when told to. `advance(ms)` fires every timer that falls due, in due-time
 * order (ties in scheduling order), including timers scheduled by the callbacks it runs. Callbacks run
 * synchronously; `await flush()` afterwards to let promise continuations run.
 */
export class FakeClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: FakeTimer[] = [];

  constructor(start: number | string = '2024-01-01T00:00:00Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  after(ms: number, fn: () => void): () => void {
    const timer: FakeTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => { this.timers = this.timers.filter((t) => t !== timer); };
  }

  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.nextDue(target);
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = next.at;
      next.fn();
    }
    this.current = target;
  }

  /** Advances in steps, letting promise continuations run after each step (for async code under test). */
  async advanceAsync(ms: number, stepMs = ms): Promise<void> {
    for (let left = ms; left > 0; left -= stepMs) {
      this.advance(Math.min(stepMs, left));
      await flush();
    }
  }

  /** Number of timers not yet fired. */
  pending(): number {
    return this.timers.length;
  }

  private nextDue(target: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers) {
      if (t.at > target) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  }
}

/** Lets pending promise continuations (and I/O callbacks already queued) run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
