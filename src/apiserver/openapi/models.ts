/**
 * Access to @kubernetes/client-node's generated model classes: their attribute type maps (the
 * shape of every built-in type) and, read lazily from the shipped .d.ts files, their doc comments
 * and which fields are required. Only the models module is loaded, not the HTTP client.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as generated from '@kubernetes/client-node/dist/gen/models/all.js';

export interface ModelAttribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

interface ModelClass {
  getAttributeTypeMap(): ModelAttribute[];
}

const classes = generated as unknown as Record<string, unknown>;

function isModelClass(value: unknown): value is ModelClass {
  return typeof value === 'function' && typeof (value as Partial<ModelClass>).getAttributeTypeMap === 'function';
}

/** The attributes of a model class, or undefined when no such class exists. */
export function modelAttributes(className: string): ModelAttribute[] | undefined {
  const cls = classes[className];
  return isModelClass(cls) ? cls.getAttributeTypeMap() : undefined;
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Prefix the generator adds when a short name is ambiguous: Core, Events, Rbac, Admissionregistration... */
export function groupPrefix(group: string): string {
  return group === '' ? 'Core' : pascal(group.split('.')[0]);
}

/** The model class of a built-in kind, e.g. ('apps','v1','Deployment') -> 'V1Deployment'. */
export function classForKind(group: string, version: string, kind: string): string | undefined {
  const candidates = [`${groupPrefix(group)}${pascal(version)}${kind}`, `${pascal(version)}${kind}`];
  return candidates.find((c) => modelAttributes(c) !== undefined);
}

export interface FieldDoc {
  description?: string;
  required: boolean;
}

export interface ClassDoc {
  description?: string;
  /** Keyed by the TypeScript property name (ModelAttribute.name). */
  fields: Map<string, FieldDoc>;
}

const docCache = new Map<string, ClassDoc>();
const require = createRequire(import.meta.url);

function cleanComment(body: string): string | undefined {
  const text = body
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trimEnd())
    .join('\n')
    .trim()
    .replace(/\\(['"])/g, '$1');
  return text === '' ? undefined : text;
}

function parseDeclaration(source: string): ClassDoc {
  const doc: ClassDoc = { fields: new Map() };
  const classAt = source.indexOf('export declare class');
  const commentAt = source.lastIndexOf('/**', classAt);
  const commentEnd = source.lastIndexOf('*/', classAt);
  if (classAt > 0 && commentAt >= 0 && commentEnd > commentAt && source.slice(commentEnd + 2, classAt).trim() === '') {
    doc.description = cleanComment(source.slice(commentAt + 3, commentEnd));
  }
  const prop = /(?:\/\*\*\n((?:(?!\*\/)[\s\S])*?)\*\/\s*\n)?\s*'([^']+)'(\?)?:/g;
  for (let m = prop.exec(source); m; m = prop.exec(source)) {
    doc.fields.set(m[2], { description: m[1] ? cleanComment(m[1]) : undefined, required: m[3] !== '?' });
  }
  return doc;
}

/** Doc comments and required flags of a model class; empty when its declaration cannot be read. */
export function classDoc(className: string): ClassDoc {
  const cached = docCache.get(className);
  if (cached) return cached;
  let doc: ClassDoc = { fields: new Map() };
  try {
    const js = require.resolve(`@kubernetes/client-node/dist/gen/models/${className}.js`);
    doc = parseDeclaration(readFileSync(js.replace(/\.js$/, '.d.ts'), 'utf8'));
  } catch {
    // descriptions are a nicety for `kubectl explain`; schemas work without them
  }
  docCache.set(className, doc);
  return doc;
}
