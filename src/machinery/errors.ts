/**
 * StatusError: the one error type for API failures, on the server (turned into a metav1.Status body)
 * and in clients (parsed back from one). Constructors follow apimachinery's errors package so the
 * reason, code and message read exactly as a real API server writes them.
 */
import type { Status, StatusCause, StatusDetails } from '../api/meta.js';

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details?: StatusDetails;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers?: Record<string, string>;

  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers?: Record<string, string>) {
    super(message);
    this.name = 'StatusError';
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  toStatus(): Status {
    const status: Status = {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: this.message, reason: this.reason, code: this.code,
    };
    if (this.details) status.details = this.details;
    return status;
  }

  static fromStatus(status: Partial<Status>): StatusError {
    return new StatusError(status.code ?? 500, status.reason ?? '', status.message ?? '', status.details);
  }
}

/** A validation problem at one field path, like apimachinery's field.Error. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** Omitted for Required/Forbidden errors. */
  value?: unknown;
  detail?: string;
}

export type FieldErrorType =
  | 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueNotSupported' | 'FieldValueDuplicate'
  | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany' | 'FieldValueTypeInvalid' | 'InternalError';

const typeWords: Record<FieldErrorType, string> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

export const field = {
  invalid: (path: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field: path, value, detail }),
  required: (path: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: path, detail }),
  forbidden: (path: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: path, detail }),
  duplicate: (path: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field: path, value }),
  notSupported: (path: string, value: unknown, valid: string[]): FieldError => ({
    type: 'FieldValueNotSupported', field: path, value,
    detail: valid.length ? `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}` : '',
  }),
  tooLong: (path: string, value: unknown, max: number): FieldError => ({
    type: 'FieldValueTooLong', field: path, value, detail: `must have at most ${max} bytes`,
  }),
  typeInvalid: (path: string, value: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field: path, value, detail }),
};

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The message of one field error, as `field.Error.Error()` prints it. */
export function fieldErrorMessage(e: FieldError): string {
  const word = typeWords[e.type];
  const hasValue = e.type !== 'FieldValueRequired' && e.type !== 'FieldValueForbidden' && e.type !== 'InternalError'
    && e.type !== 'FieldValueTooMany' && e.value !== undefined;
  let body = word;
  if (hasValue) body += `: ${formatValue(e.value)}`;
  if (e.detail) body += `: ${e.detail}`;
  return `${e.field}: ${body}`;
}

function qualified(resource: string, group?: string): string {
  return group ? `${resource}.${group}` : resource;
}

export const errors = {
  notFound: (resource: string, name: string, group = ''): StatusError =>
    new StatusError(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, { name, group: group || undefined, kind: resource }),
  alreadyExists: (resource: string, name: string, group = ''): StatusError =>
    new StatusError(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, { name, group: group || undefined, kind: resource }),
  conflict: (resource: string, name: string, group = '', why = 'the object has been modified; please apply your changes to the latest version and try again'): StatusError =>
    new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": ${why}`, { name, group: group || undefined, kind: resource }),
  invalid: (kind: string, name: string, group: string, errs: FieldError[]): StatusError => {
    const messages = errs.map(fieldErrorMessage);
    const unique = [...new Set(messages)]; // ErrorList.ToAggregate drops repeated messages; causes keep them
    const joined = unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${qualified(kind, group)} "${name}" is invalid: ${joined}`, {
      name, group: group || undefined, kind,
      causes: errs.map((e, i) => ({ reason: e.type, message: messages[i].slice(e.field.length + 2), field: e.field })),
    });
  },
  badRequest: (message: string, causes?: StatusCause[]): StatusError =>
    new StatusError(400, 'BadRequest', message, causes ? { causes } : undefined),
  unauthorized: (message = 'Unauthorized'): StatusError => new StatusError(401, 'Unauthorized', message),
  forbidden: (message: string, details?: StatusDetails): StatusError => new StatusError(403, 'Forbidden', message, details),
  methodNotAllowed: (message: string): StatusError => new StatusError(405, 'MethodNotAllowed', message),
  notAcceptable: (message: string): StatusError => new StatusError(406, 'NotAcceptable', message),
  unsupportedMediaType: (contentType: string): StatusError =>
    new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`, { causes: [{ reason: 'UnsupportedMediaType', message: contentType }] }),
  expired: (message: string): StatusError => new StatusError(410, 'Expired', message),
  gone: (message: string): StatusError => new StatusError(410, 'Gone', message),
  requestEntityTooLarge: (message: string): StatusError => new StatusError(413, 'RequestEntityTooLarge', message),
  tooManyRequests: (message: string, retryAfterSeconds: number, causes?: StatusCause[]): StatusError =>
    new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds, causes }, { 'Retry-After': String(retryAfterSeconds) }),
  internal: (message: string): StatusError => new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
  timeout: (message: string): StatusError => new StatusError(504, 'Timeout', message),
  serviceUnavailable: (message: string): StatusError => new StatusError(503, 'ServiceUnavailable', message),
};

export const isNotFound = (e: unknown): boolean => e instanceof StatusError && e.code === 404;
export const isConflict = (e: unknown): boolean => e instanceof StatusError && e.code === 409 && e.reason === 'Conflict';
export const isAlreadyExists = (e: unknown): boolean => e instanceof StatusError && e.reason === 'AlreadyExists';
