/** Request body decoding: JSON (strict about shape), YAML for apply patches, with Kubernetes' error texts. */
import { parse as parseYaml } from 'yaml';
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import { duplicateFields } from '../../machinery/json-duplicates.js';
import { decodeProtobufObject, isProtobufContentType } from './protobuf/decode.js';

/**
 * Deepest nesting of arrays and objects a body may have. Real objects stay under 30; past a few
 * thousand, the recursive code that copies and compares objects would overflow the stack
 * (kube-apiserver's decoder stops at 10,000; docs/design/apiserver.md, "Decoding").
 */
export const MAX_BODY_DEPTH = 1000;

/** Refuses bodies nested deeper than MAX_BODY_DEPTH before anything recursive touches them. */
function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_BODY_DEPTH) throw errors.badRequest(`the request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

/** A body's text, decoded once for the depth check, the parse and the duplicate scan. */
const texts = new WeakMap<Buffer, string>();
function bodyText(body: Buffer): string {
  let text = texts.get(body);
  if (text === undefined) texts.set(body, (text = body.toString('utf8')));
  return text;
}

export function decodeJson(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) throw errors.badRequest('the body of the request was empty');
  const text = bodyText(body);
  checkDepth(text);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

export function decodeYamlOrJson(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) throw errors.badRequest('the body of the request was empty');
  const text = bodyText(body);
  checkDepth(text);
  try {
    return JSON.parse(text);
  } catch {
    try {
      return parseYaml(text);
    } catch (e) {
      throw errors.badRequest(`error decoding YAML: ${(e as Error).message}`);
    }
  }
}

export function decodeObject(body: Buffer | undefined, contentType: string | undefined): KObject {
  const value = isProtobufContentType(contentType) ? decodeProtobuf(body) : contentType?.includes('yaml') ? decodeYamlOrJson(body) : decodeJson(body);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw errors.badRequest('Object \'Kind\' is missing in the request body: the body must be a JSON object');
  }
  const obj = value as KObject;
  if (obj.metadata !== undefined && (typeof obj.metadata !== 'object' || obj.metadata === null || Array.isArray(obj.metadata))) {
    throw errors.badRequest('metadata must be an object');
  }
  return obj;
}

function decodeProtobuf(body: Buffer | undefined): unknown {
  if (!body || body.length === 0) throw errors.badRequest('the body of the request was empty');
  return decodeProtobufObject(body).object;
}

/** Repeated keys of a JSON body (JSON.parse keeps the last one silently); none for YAML or protobuf. */
export function jsonDuplicateFields(body: Buffer | undefined, contentType: string | undefined): string[] {
  if (!body || body.length === 0 || isProtobufContentType(contentType) || contentType?.includes('yaml')) return [];
  return duplicateFields(bodyText(body));
}

/** DeleteOptions in a DELETE body: JSON from kubectl and client-node, protobuf from typed Go clients. */
export function decodeOptionalBody(body: Buffer | undefined, contentType: string | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  return isProtobufContentType(contentType) ? decodeProtobuf(body) : decodeJson(body);
}

/** Content types accepted for writes (besides patches); protobuf is refused. */
export function checkWriteContentType(contentType: string | undefined): void {
  const ct = (contentType ?? 'application/json').split(';')[0].trim();
  if (ct === 'application/json' || ct === 'application/yaml' || ct === '' || ct === '*/*' || isProtobufContentType(ct)) return;
  throw errors.unsupportedMediaType(ct);
}
