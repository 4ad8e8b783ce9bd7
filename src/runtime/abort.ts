/** An AbortController whose signal many waiters share (workers, sleeps, watches), so no listener-count warning. */
import { setMaxListeners } from 'node:events';

export function withoutListenerLimit(controller: AbortController): AbortController {
  setMaxListeners(0, controller.signal);
  return controller;
}
