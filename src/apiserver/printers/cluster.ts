/**
 * Printers for cluster plumbing kinds: PodDisruptionBudget, Lease, PriorityClass, admission
 * webhook configurations and RBAC bindings.
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince } from './age.js';
import { ageColumn, col, nameColumn, printer, wide } from './columns.js';
import { arrayAt, asObject, asString, createdAt, intOrString, nameOf, numberAt, stringAt, valueAt } from './fields.js';

function intOrStringOrNA(value: unknown): string {
  return value === undefined || value === null ? 'N/A' : intOrString(value);
}

export const podDisruptionBudgetPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Min Available', 'string', 'The minimum number of pods that must be available.'),
    col('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    col('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn(),
  ],
  (pdb, now) => [
    nameOf(pdb),
    intOrStringOrNA(valueAt(pdb, 'spec', 'minAvailable')),
    intOrStringOrNA(valueAt(pdb, 'spec', 'maxUnavailable')),
    numberAt(pdb, 'status', 'disruptionsAllowed'),
    ageSince(createdAt(pdb), now),
  ],
);

export const leasePrinter: TablePrinter = printer(
  [nameColumn(), col('Holder', 'string', 'holderIdentity contains the identity of the holder of a current lease.'), ageColumn()],
  (lease, now) => [nameOf(lease), stringAt(lease, 'spec', 'holderIdentity'), ageSince(createdAt(lease), now)],
);

export const priorityClassPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Value', 'integer', 'value represents the integer value of this priority class.'),
    col('Global-Default', 'boolean', 'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.'),
    ageColumn(),
    col('PreemptionPolicy', 'string', 'preemptionPolicy is the Policy for preempting pods with lower priority.'),
  ],
  (pc, now) => [
    nameOf(pc),
    numberAt(pc, 'value'),
    valueAt(pc, 'globalDefault') === true,
    ageSince(createdAt(pc), now),
    stringAt(pc, 'preemptionPolicy'),
  ],
);

/** Mutating and validating webhook configurations print the same columns. */
export const webhookConfigurationPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'),
    ageColumn(),
  ],
  (cfg, now) => [nameOf(cfg), arrayAt(cfg, 'webhooks').length, ageSince(createdAt(cfg), now)],
);

/** Users, groups and service accounts (`namespace:name`) of a binding's subjects. */
function subjectStrings(binding: unknown): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of arrayAt(binding, 'subjects').map(asObject)) {
    const name = asString(s.name);
    if (s.kind === 'User') users.push(name);
    else if (s.kind === 'Group') groups.push(name);
    else if (s.kind === 'ServiceAccount') sas.push(`${asString(s.namespace)}:${name}`);
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingPrinter(what: string): TablePrinter {
  return printer(
    [
      nameColumn(),
      col('Role', 'string', 'RoleRef can only reference a ClusterRole in the global namespace.'),
      ageColumn(),
      wide('Users', 'string', `Users in the ${what}`),
      wide('Groups', 'string', `Groups in the ${what}`),
      wide('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`),
    ],
    (b, now) => [
      nameOf(b),
      `${stringAt(b, 'roleRef', 'kind')}/${stringAt(b, 'roleRef', 'name')}`,
      ageSince(createdAt(b), now),
      ...subjectStrings(b),
    ],
  );
}

export const roleBindingPrinter = bindingPrinter('roleBinding');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding');
