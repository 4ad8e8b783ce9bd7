/**
 * The node behaviour file (`kruise up --node-behaviour FILE`, §10): rules in the spirit of KWOK
 * stages (a selector and what to set on what it selects), what an unreadable command does, and
 * facts about image registries. Checked against its schema, then for what a schema cannot say
 * (selectors parse, digest aliases resolve); every problem names the rule and the field.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { BehaviourSettingsSchema, UnknownCommandsSchema } from './settings.js';
import { checkImageFacts } from './image-facts.js';
import { parseLabelSelector } from '../../../machinery/labels.js';

const names = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

export const RuleSchema = Type.Object({
  name: Type.String({ minLength: 1 }),
  select: Type.Optional(Type.Object({
    namespaces: Type.Optional(names('namespace names')),
    podSelector: Type.Optional(Type.String({ description: 'a label selector such as app=web,tier!=db' })),
    ownerKinds: Type.Optional(names('kinds of the pod\'s owner, e.g. Job')),
    containerNames: Type.Optional(names('container names or globs')),
    images: Type.Optional(names('image globs, e.g. nginx:* or *.example.com/*')),
  }, { additionalProperties: false })),
  set: BehaviourSettingsSchema,
}, { additionalProperties: false });

export const ImageFactSchema = Type.Object({
  image: Type.String({ minLength: 1, description: 'an image reference, or a glob for pullError and auth' }),
  digest: Type.Optional(Type.String({ pattern: '^sha256:[0-9a-f]{64}$', description: 'sha256: and 64 hex digits' })),
  sameDigestAs: Type.Optional(Type.String({ minLength: 1 })),
  pullError: Type.Optional(Type.String({ minLength: 1 })),
  auth: Type.Optional(Type.Object({ username: Type.String({ minLength: 1 }), password: Type.String() }, { additionalProperties: false })),
}, { additionalProperties: false });

export const NodeBehaviourSchema = Type.Object({
  apiVersion: Type.Literal('kruise-ts.io/v1alpha1'),
  kind: Type.Literal('NodeBehaviour'),
  unknownCommands: Type.Optional(UnknownCommandsSchema),
  rules: Type.Optional(Type.Array(RuleSchema)),
  images: Type.Optional(Type.Array(ImageFactSchema)),
}, { additionalProperties: false });

export type NodeBehaviour = Static<typeof NodeBehaviourSchema>;
export type BehaviourRule = Static<typeof RuleSchema>;
export type ImageFact = Static<typeof ImageFactSchema>;

export class NodeBehaviourError extends Error {}

/** Parses and checks the file's text; throws NodeBehaviourError listing every problem. */
export function parseNodeBehaviour(text: string, source: string): NodeBehaviour {
  let value: unknown;
  try {
    value = parse(text);
  } catch (e) {
    throw new NodeBehaviourError(`node behaviour file ${source}: not valid YAML: ${(e as Error).message}`);
  }
  return checkNodeBehaviour(value, source);
}

export function checkNodeBehaviour(value: unknown, source: string): NodeBehaviour {
  const problems = schemaProblems(value);
  if (problems.length === 0) problems.push(...semanticProblems(value as NodeBehaviour));
  if (problems.length > 0) throw new NodeBehaviourError(`node behaviour file ${source} is invalid:\n  ${problems.join('\n  ')}`);
  return value as NodeBehaviour;
}

/** `/rules/2/set/runSeconds` → `rules[2] (name "slow"): set.runSeconds`. */
function where(value: unknown, path: string): string {
  const parts = path.split('/').filter(Boolean);
  const list = parts[0];
  if ((list !== 'rules' && list !== 'images') || parts.length < 2) return parts.join('.') || '(the file)';
  const entry = (value as Record<string, Record<string, unknown>[]>)[list]?.[Number(parts[1])];
  const label = list === 'rules' ? `name ${JSON.stringify(entry?.name ?? '')}` : `image ${JSON.stringify(entry?.image ?? '')}`;
  const field = parts.slice(2).join('.');
  return `${list}[${parts[1]}] (${label})${field ? `: ${field}` : ''}`;
}

function schemaProblems(value: unknown): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of Value.Errors(NodeBehaviourSchema, value)) {
    if (seen.has(e.path)) continue;
    seen.add(e.path);
    const expected = e.schema.description ? `must be ${e.schema.description}` : e.message;
    out.push(`${where(value, e.path)}: ${e.message === 'Unexpected property' ? 'unknown field' : expected}${e.value !== undefined && typeof e.value !== 'object' ? ` (got ${JSON.stringify(e.value)})` : ''}`);
  }
  return out;
}

function semanticProblems(file: NodeBehaviour): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  (file.rules ?? []).forEach((rule, i) => {
    if (seen.has(rule.name)) out.push(`${where(file, `/rules/${i}/name`)}: a rule of this name comes earlier`);
    seen.add(rule.name);
    const selector = rule.select?.podSelector;
    if (selector === undefined) return;
    try {
      parseLabelSelector(selector);
    } catch (e) {
      out.push(`${where(file, `/rules/${i}/select/podSelector`)}: ${(e as Error).message}`);
    }
  });
  for (const { index, field, message } of checkImageFacts(file.images ?? [])) out.push(`${where(file, `/images/${index}/${field}`)}: ${message}`);
  return out;
}
