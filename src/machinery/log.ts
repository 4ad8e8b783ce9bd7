/**
 * Structured logging (pino). Components receive a child logger; messages are constant strings with
 * key/value fields, objects logged as {kind, namespace, name}. JSON by default, as services log;
 * `kruise up` switches to text (pino-pretty) for a person at a terminal.
 */
import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type { PinoPretty } from 'pino-pretty';

export type { Logger };
export type LogFormat = 'json' | 'text';

// Loggers made at import time keep working when the format changes: they all write to `sink`.
let sink: { write(line: string): unknown } = pino.destination(2);
let root: Logger = pino({ level: process.env.KRUISE_LOG_LEVEL ?? 'info', base: undefined }, { write: (line: string) => sink.write(line) });

export function setLogLevel(next: string): void {
  root.level = next;
}

/** Level and format at once, as each command's flags say (format default: json). */
export function configureLogging(options: { level: string; format?: LogFormat }): void {
  setLogFormat(options.format ?? 'json');
  setLogLevel(options.level);
}

/** Text: one line per entry on stderr, `HH:MM:ss LEVEL component: message key=value...`. */
export function setLogFormat(format: LogFormat): void {
  if (format === 'json') {
    sink = pino.destination(2);
    return;
  }
  // Loaded only for text: a manager logging JSON does not keep pino-pretty (docs/design/performance.md §15).
  const pretty = (createRequire(import.meta.url)('pino-pretty') as { PinoPretty: typeof PinoPretty }).PinoPretty;
  sink = pretty({
    destination: 2, sync: true, colorize: process.stderr.isTTY === true, singleLine: true,
    translateTime: 'HH:MM:ss', ignore: 'pid,hostname,component,name', messageFormat: '{component}: {msg}{if name} {name}{end}',
  });
}

/** Replaces the root logger (tests silence it). */
export function setRootLogger(logger: Logger): void {
  root = logger;
}

export function logger(component: string): Logger {
  return root.child({ component });
}
