/**
 * resourcesPolicy of a sidecar: not together with explicit resources, only on native-sidecar
 * init containers, a compilable target regex, limits or requests present, expressions that parse.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { child, has, isObject, str, type Json } from '../../machinery/json.js';
import { resourceExpressionError } from './resource-expr.js';

const nonEmpty = (o: unknown): boolean => isObject(o) && Object.keys(o).length > 0;

export function validateResourcesPolicy(c: Json, path: string, initContainer: boolean): FieldError[] {
  const policy = child(c, 'resourcesPolicy');
  if (!policy) return [];
  const p = `${path}.resourcesPolicy`;
  const errs: FieldError[] = [];
  if (initContainer && c.restartPolicy !== 'Always') {
    errs.push(field.invalid(p, policy, 'resourcesPolicy can only be configured on init containers with restartPolicy Always'));
  }
  const resources = child(c, 'resources');
  if (nonEmpty(resources?.limits) || nonEmpty(resources?.requests)) {
    errs.push(field.invalid(p, policy, 'resourcesPolicy and resources cannot be configured together'));
  }
  const mode = str(policy, 'targetContainersMode');
  if (mode && mode !== 'sum' && mode !== 'max') errs.push(field.notSupported(`${p}.targetContainersMode`, mode, ['sum', 'max']));
  errs.push(...validateTargetRegex(policy, p));
  const expr = child(policy, 'resourcesExpr');
  if (!has(expr, 'limits') && !has(expr, 'requests')) {
    errs.push(field.invalid(`${p}.resourcesExpr`, expr ?? {}, 'at least one of limits or requests must be configured'));
  }
  for (const kind of ['limits', 'requests']) {
    for (const resource of ['cpu', 'memory']) {
      const text = str(child(expr, kind), resource);
      const why = resourceExpressionError(text, resource);
      if (why) errs.push(field.invalid(`${p}.resourcesExpr.${kind}.${resource}`, text, `invalid expression: ${why}`));
    }
  }
  return errs;
}

/** Absent means `.*` (every container); an explicit empty string is refused. */
function validateTargetRegex(policy: Json, p: string): FieldError[] {
  if (!has(policy, 'targetContainersNameRegex')) return [];
  const regex = str(policy, 'targetContainersNameRegex');
  if (!regex) return [field.required(`${p}.targetContainersNameRegex`, 'targetContainersNameRegex must not be empty')];
  try {
    new RegExp(regex);
    return [];
  } catch (e) {
    return [field.invalid(`${p}.targetContainersNameRegex`, regex, `invalid regex pattern: ${(e as Error).message}`)];
  }
}
