/**
 * Structured JSON logging (pino). Components receive a child logger; messages are constant
 * strings with key/value fields, objects logged as {kind, namespace, name}.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

let root: Logger = pino({ level: process.env.KRUISE_LOG_LEVEL ?? 'info', base: undefined }, pino.destination(2));

export function setLogLevel(level: string): void {
  root.level = level;
}

/** Replaces the root logger (tests silence it). */
export function setRootLogger(logger: Logger): void {
  root = logger;
}

export function logger(component: string): Logger {
  return root.child({ component });
}
