/**
 * Feature gates as an injected catalogue: parse `A=true,B=false` (plus the AllAlpha/AllBeta meta-gates)
 * against known defaults, then apply dependency rules. Unknown gates and bad values are errors.
 */
export interface GateSpec {
  default: boolean;
  stage: 'Alpha' | 'Beta' | 'GA';
}

export type GateCatalogue = Record<string, GateSpec>;

export class FeatureGates {
  private constructor(private readonly values: Map<string, boolean>) {}

  static parse(catalogue: GateCatalogue, text = '', overrides: Record<string, boolean> = {}, rules: ((g: Map<string, boolean>) => void)[] = []): FeatureGates {
    const values = new Map(Object.entries(catalogue).map(([name, spec]) => [name, spec.default]));
    for (const [name, value] of Object.entries(overrides)) values.set(name, value);
    const explicit = new Map<string, boolean>();
    for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
      const m = /^([A-Za-z0-9]+)=(true|false)$/.exec(part);
      if (!m) throw new Error(`invalid feature gate ${JSON.stringify(part)}: expected Name=true|false`);
      if (!catalogue[m[1]] && m[1] !== 'AllAlpha' && m[1] !== 'AllBeta') throw new Error(`unrecognized feature gate: ${m[1]}`);
      explicit.set(m[1], m[2] === 'true');
    }
    for (const [meta, stage] of [['AllAlpha', 'Alpha'], ['AllBeta', 'Beta']] as const) {
      const on = explicit.get(meta);
      if (on === undefined) continue;
      for (const [name, spec] of Object.entries(catalogue)) if (spec.stage === stage) values.set(name, on);
    }
    for (const [name, on] of explicit) if (catalogue[name]) values.set(name, on);
    for (const rule of rules) rule(values);
    return new FeatureGates(values);
  }

  enabled(name: string): boolean {
    return this.values.get(name) ?? false;
  }

  /** Enabled gate names, sorted, for logs and `kruise up`'s banner. */
  enabledNames(): string[] {
    return [...this.values].filter(([, on]) => on).map(([name]) => name).sort();
  }
}
