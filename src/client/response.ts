/**
 * Turns a wire response into a value or a StatusError, the same way for HTTP and in-process:
 * 2xx -> parsed JSON; anything else -> the Status body (or a generic error for the code).
 */
import { isObject, type Status } from '../api/meta.js';
import { StatusError } from '../machinery/errors.js';

export interface WireResponse {
  code: number;
  /** Lower-cased names. */
  headers: Record<string, string | undefined>;
  text: string;
}

/** Reasons for bodies that are not a Status, like client-go's NewGenericServerResponse. */
const reasons: Record<number, string> = {
  400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed',
  406: 'NotAcceptable', 409: 'Conflict', 410: 'Expired', 413: 'RequestEntityTooLarge', 415: 'UnsupportedMediaType',
  422: 'Invalid', 429: 'TooManyRequests', 500: 'InternalError', 503: 'ServiceUnavailable', 504: 'Timeout',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isStatus(value: unknown): value is Partial<Status> {
  return isObject(value) && value.kind === 'Status';
}

/** A Status into a StatusError, keeping Retry-After (fromStatus has no headers argument). */
export function statusToError(status: Partial<Status>, httpCode?: number, retryAfter?: string): StatusError {
  const s = { ...status, code: status.code || httpCode || 500 };
  if (!retryAfter) return StatusError.fromStatus(s);
  return new StatusError(s.code, s.reason ?? '', s.message ?? '', s.details, { 'Retry-After': retryAfter });
}

export function responseError(res: WireResponse): StatusError {
  const body = parseJson(res.text);
  if (isStatus(body)) return statusToError(body, res.code, res.headers['retry-after']);
  const message = res.text.trim() || `the server responded with the status code ${res.code} but did not return more information`;
  return new StatusError(res.code, reasons[res.code] ?? 'Unknown', message, undefined, res.headers['retry-after'] ? { 'Retry-After': res.headers['retry-after'] } : undefined);
}

/** The decoded body of a successful response (text when it is not JSON, e.g. pods/log). */
export function interpret(res: WireResponse): unknown {
  if (res.code < 200 || res.code > 299) throw responseError(res);
  if (res.text === '') return undefined;
  const contentType = res.headers['content-type'] ?? 'application/json';
  if (!contentType.includes('json')) return res.text;
  try {
    return JSON.parse(res.text);
  } catch (e) {
    throw new StatusError(500, 'InternalError', `unable to decode the response body: ${(e as Error).message}`);
  }
}

/** A failure to reach the server (refused, reset, timed out, bad TLS) as 503 ServiceUnavailable. */
export function transportError(cause: unknown): StatusError {
  if (cause instanceof StatusError) return cause;
  const text = cause instanceof Error ? `${cause.message}${codeOf(cause)}` : String(cause);
  return new StatusError(503, 'ServiceUnavailable', `unable to reach the API server: ${text}`);
}

function codeOf(e: Error): string {
  const code = (e as Error & { code?: unknown }).code;
  return typeof code === 'string' && !e.message.includes(code) ? ` (${code})` : '';
}
