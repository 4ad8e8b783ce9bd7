/**
 * flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration: stored with their
 * defaults, and the bootstrap objects of a v1.32 cluster are created at start
 * (system/flowcontrol-bootstrap.ts). Requests are not queued by them (docs/design/apiserver.md §11).
 */
import type { KObject } from '../../../api/meta.js';
import { field, type FieldError } from '../../../machinery/errors.js';
import type { BuiltinResource } from '../builtin-resource.js';
import { builtin, resource } from './define.js';
import { child, num, setDefault } from '../../../machinery/json.js';
import { specOf } from '../../../machinery/podspec/workload-validation.js';
import { oneOf } from '../../../machinery/validation/checks.js';

const group = 'flowcontrol.apiserver.k8s.io';

export function validateFlowSchema(fs: KObject): FieldError[] {
  const spec = specOf(fs);
  const errs: FieldError[] = [];
  const precedence = num(spec, 'matchingPrecedence');
  if (precedence !== undefined && precedence <= 0) errs.push(field.invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence !== undefined && precedence > 10000) errs.push(field.invalid('spec.matchingPrecedence', precedence, 'must not be greater than 10000'));
  if (!child(spec, 'priorityLevelConfiguration')?.name) errs.push(field.required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  return errs;
}

function defaultPriorityLevel(pl: KObject): void {
  const spec = specOf(pl);
  const exempt = child(spec, 'exempt');
  if (exempt) {
    setDefault(exempt, 'nominalConcurrencyShares', 0);
    setDefault(exempt, 'lendablePercent', 0);
  }
  const limited = child(spec, 'limited');
  if (!limited) return;
  setDefault(limited, 'nominalConcurrencyShares', 30);
  setDefault(limited, 'lendablePercent', 0);
  const queuing = child(child(limited, 'limitResponse'), 'queuing');
  if (queuing) {
    setDefault(queuing, 'queues', 64);
    setDefault(queuing, 'handSize', 8);
    setDefault(queuing, 'queueLengthLimit', 50);
  }
}

export function validatePriorityLevel(pl: KObject): FieldError[] {
  const spec = specOf(pl);
  const errs = oneOf('spec.type', spec.type, ['Exempt', 'Limited']);
  if (spec.type === 'Limited' && !child(spec, 'limited')) errs.push(field.required('spec.limited', 'must not be empty when type is Limited'));
  if (spec.type === 'Exempt' && child(spec, 'limited')) errs.push(field.forbidden('spec.limited', 'must be nil if the type is not Limited'));
  const response = child(child(spec, 'limited'), 'limitResponse');
  if (response) errs.push(...oneOf('spec.limited.limitResponse.type', response.type, ['Queue', 'Reject']));
  return errs;
}

export function flowControlResources(): BuiltinResource[] {
  return [
    builtin(resource({ group, version: 'v1', kind: 'FlowSchema', plural: 'flowschemas', namespaced: false, status: true }), {
      default: (fs) => setDefault(specOf(fs), 'matchingPrecedence', 1000),
      validate: validateFlowSchema,
    }, true),
    builtin(resource({ group, version: 'v1', kind: 'PriorityLevelConfiguration', plural: 'prioritylevelconfigurations', namespaced: false, status: true }), {
      default: defaultPriorityLevel,
      validate: validatePriorityLevel,
    }, true),
  ];
}
