/**
 * What a behaviour rule or a pod annotation can set for a container (§10), one schema for the
 * file's `set:` and for the annotations, and how the settings change what the command would do:
 * `runSeconds` and `exitCode` replace the matching half of the interpreter's plan (an exit code
 * alone on a container that would run until stopped exits right after starting, as the
 * `simulate-exit-code` annotation always did).
 */
import { Type, type Static } from '@sinclair/typebox';
import { runsUntilStopped, type ProcessPlan } from './process.js';

const seconds = (description: string) => Type.Number({ minimum: 0, description });

export const BehaviourSettingsSchema = Type.Object({
  runSeconds: Type.Optional(Type.Union([Type.Number({ minimum: 0 }), Type.Literal('infinity')], {
    description: 'a non-negative number of seconds or "infinity"',
  })),
  exitCode: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, description: 'an integer from 0 to 255' })),
  startDelaySeconds: Type.Optional(seconds('time from StartContainer to running')),
  terminationSeconds: Type.Optional(seconds('time to exit after SIGTERM')),
  readinessDelaySeconds: Type.Optional(seconds('time from start to ready')),
  readinessFlaps: Type.Optional(Type.Object({
    readySeconds: Type.Number({ exclusiveMinimum: 0 }),
    unreadySeconds: Type.Number({ exclusiveMinimum: 0 }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });

export type BehaviourSettings = Static<typeof BehaviourSettingsSchema>;

/** Later settings win field by field. */
export function mergeSettings(...layers: BehaviourSettings[]): BehaviourSettings {
  const out: BehaviourSettings = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** The interpreter's plan with `runSeconds` / `exitCode` laid over it. */
export function applySettings(plan: ProcessPlan, s: BehaviourSettings): ProcessPlan {
  if (s.runSeconds === 'infinity') return runsUntilStopped;
  if (s.runSeconds === undefined && s.exitCode === undefined) return plan;
  const afterMs = s.runSeconds !== undefined ? s.runSeconds * 1000 : plan.ends === 'exit' ? plan.afterMs : 0;
  const exitCode = s.exitCode ?? (plan.ends === 'exit' ? plan.exitCode : 0);
  return { ends: 'exit', afterMs, exitCode };
}

/** What happens to a command the interpreter cannot read (§9), by the restart policy that applies. */
export const UnknownCommandsSchema = Type.Object({
  restartPolicyAlways: Type.Optional(Type.Union([Type.Literal('run'), Type.Literal('complete')], { description: '"run" or "complete"' })),
  otherwise: Type.Optional(Type.Union([Type.Literal('run'), Type.Literal('complete')], { description: '"run" or "complete"' })),
  runSeconds: Type.Optional(seconds('how long a completing unknown command runs')),
}, { additionalProperties: false });

export type UnknownCommands = Required<Static<typeof UnknownCommandsSchema>>;

/** Servers keep serving; a batch command we cannot read completes after a short run. */
export const defaultUnknownCommands: UnknownCommands = { restartPolicyAlways: 'run', otherwise: 'complete', runSeconds: 1 };
