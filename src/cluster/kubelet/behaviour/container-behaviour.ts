/**
 * What one container of one pod does on a simulated node (§9, §10), from the most general to the
 * most specific source: the interpreter's reading of its command and image, then the behaviour
 * file's matching rules, then the pod's annotations (pod-wide, then `<key>.<container>`).
 * A command the interpreter cannot read falls back by the restart policy that applies to the
 * container: serving (restartPolicy Always, native sidecars, and main containers of an unknown
 * image with no command) runs until stopped; anything else completes after a short run.
 */
import type { RegistryFacts } from '../../../daemon/cri/fake-images.js';
import { annotationSettings, type ContainerRole } from '../simulate-annotations.js';
import type { NodeBehaviour } from './behaviour-file.js';
import { registryFacts } from './image-facts.js';
import { exitsAfter, runsUntilStopped, type ProcessPlan } from './process.js';
import { readCommand, type CommandReading } from './read-command.js';
import { compileRule, ruleSettings, type CompiledRule } from './rules.js';
import { applySettings, defaultUnknownCommands, mergeSettings, type BehaviourSettings, type UnknownCommands } from './settings.js';
import type { Container, Pod } from '../../../api/core/index.js';

export interface ContainerBehaviour {
  process: ProcessPlan;
  /** Unset: the runtime's and the kubelet's defaults. */
  startDelayMs?: number;
  terminationMs?: number;
  /** What decided `process`, for the kubelet's debug log. */
  why: string;
}

export interface ReadinessBehaviour {
  delayMs?: number;
  flaps?: { readyMs: number; unreadyMs: number };
}

export class BehaviourResolver {
  private readonly rules: CompiledRule[];
  private readonly unknown: UnknownCommands;
  readonly registry?: RegistryFacts;
  /** readiness() per pod version (its metadata object) and container: asked at every probe look (§24). */
  private readonly readinessSeen = new WeakMap<object, WeakMap<Container, ReadinessBehaviour>>();

  constructor(file?: NodeBehaviour) {
    this.rules = (file?.rules ?? []).map(compileRule);
    this.unknown = { ...defaultUnknownCommands, ...file?.unknownCommands };
    this.registry = file?.images?.length ? registryFacts(file.images) : undefined;
  }

  /** The container's behaviour, or the CreateContainerConfigError message of a bad annotation. */
  container(pod: Pod, container: Container, role: ContainerRole): { behaviour: ContainerBehaviour } | { error: string } {
    const annotated = annotationSettings(pod, container.name);
    if ('error' in annotated) return annotated;
    const settings = mergeSettings(ruleSettings(this.rules, pod, container), annotated.settings);
    const { plan, why } = this.fallback(readCommand(container), pod, role);
    const ms = (s?: number) => (s === undefined ? undefined : s * 1000);
    return {
      behaviour: {
        process: applySettings(plan, settings), startDelayMs: ms(settings.startDelaySeconds), terminationMs: ms(settings.terminationSeconds),
        why: settings.runSeconds !== undefined || settings.exitCode !== undefined ? `${why}, overridden by rules or annotations` : why,
      },
    };
  }

  /** Readiness delay and flaps from rules and annotations (a bad annotation is reported at start). */
  readiness(pod: Pod, container: Container): ReadinessBehaviour {
    let byContainer = this.readinessSeen.get(pod.metadata);
    if (!byContainer) this.readinessSeen.set(pod.metadata, (byContainer = new WeakMap()));
    let seen = byContainer.get(container);
    if (!seen) byContainer.set(container, (seen = this.readinessOf(pod, container)));
    return seen;
  }

  private readinessOf(pod: Pod, container: Container): ReadinessBehaviour {
    const annotated = annotationSettings(pod, container.name);
    const s: BehaviourSettings = mergeSettings(ruleSettings(this.rules, pod, container), 'settings' in annotated ? annotated.settings : {});
    const flaps = s.readinessFlaps && { readyMs: s.readinessFlaps.readySeconds * 1000, unreadyMs: s.readinessFlaps.unreadySeconds * 1000 };
    return { delayMs: s.readinessDelaySeconds === undefined ? undefined : s.readinessDelaySeconds * 1000, flaps };
  }

  private fallback(reading: CommandReading, pod: Pod, role: ContainerRole): { plan: ProcessPlan; why: string } {
    if (reading.kind === 'plan') return reading;
    const policy = role === 'sidecar' ? 'Always' : role === 'init' ? 'Never' : pod.spec.restartPolicy ?? 'Always';
    const serving = policy === 'Always' || (role === 'main' && !reading.commandGiven);
    const choice = serving ? this.unknown.restartPolicyAlways : this.unknown.otherwise;
    const what = serving ? 'serving' : role === 'init' ? 'an init container' : `restartPolicy ${policy}`;
    if (choice === 'run') return { plan: runsUntilStopped, why: `${reading.why}: runs until stopped (${what})` };
    return { plan: exitsAfter(this.unknown.runSeconds * 1000, 0), why: `${reading.why}: completes after ${this.unknown.runSeconds} s (${what})` };
  }
}
