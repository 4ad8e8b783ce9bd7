/**
 * Printers for batch/v1 Job (STATUS, COMPLETIONS "1/3", DURATION) and CronJob (SCHEDULE,
 * TIMEZONE, SUSPEND, ACTIVE, LAST SCHEDULE).
 */
import type { TablePrinter } from '../../api/resource.js';
import { ageSince, humanDuration, parseTimestamp } from './age.js';
import { ageColumn, col, containersColumn, imagesColumn, nameColumn, printer, selectorColumn } from './columns.js';
import { arrayAt, asObject, boolPtr, createdAt, nameOf, numberAt, objectAt, stringAt, valueAt } from './fields.js';
import { containerCells, formatLabelSelector } from './format.js';

const jobSelectorDescription = 'A label query over pods that should match the pod count.';

function hasCondition(job: unknown, type: string): boolean {
  const c = arrayAt(job, 'status', 'conditions').map(asObject).find((x) => x.type === type);
  return c?.status === 'True';
}

function jobStatus(job: unknown): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (valueAt(job, 'metadata', 'deletionTimestamp') !== undefined) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completions(job: unknown): string {
  const succeeded = numberAt(job, 'status', 'succeeded');
  const wanted = valueAt(job, 'spec', 'completions');
  if (typeof wanted === 'number') return `${succeeded}/${wanted}`;
  const parallelism = numberAt(job, 'spec', 'parallelism');
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function jobDuration(job: unknown, now: Date): string {
  const start = parseTimestamp(valueAt(job, 'status', 'startTime'));
  if (!start) return '';
  const end = parseTimestamp(valueAt(job, 'status', 'completionTime')) ?? now;
  return humanDuration(end.getTime() - start.getTime());
}

export const jobPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    selectorColumn(jobSelectorDescription),
  ],
  (job, now) => [
    nameOf(job),
    jobStatus(job),
    completions(job),
    jobDuration(job, now),
    ageSince(createdAt(job), now),
    ...containerCells(objectAt(job, 'spec', 'template', 'spec')),
    formatLabelSelector(valueAt(job, 'spec', 'selector')),
  ],
);

export const cronJobPrinter: TablePrinter = printer(
  [
    nameColumn(),
    col('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'string', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.'),
    col('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    ageColumn(),
    containersColumn(),
    imagesColumn(),
    selectorColumn(jobSelectorDescription),
  ],
  (cj, now) => {
    const last = valueAt(cj, 'status', 'lastScheduleTime');
    const jobSpec = objectAt(cj, 'spec', 'jobTemplate', 'spec');
    return [
      nameOf(cj),
      stringAt(cj, 'spec', 'schedule'),
      stringAt(cj, 'spec', 'timeZone') || '<none>',
      boolPtr(valueAt(cj, 'spec', 'suspend')),
      arrayAt(cj, 'status', 'active').length,
      last === undefined || last === null ? '<none>' : ageSince(last, now),
      ageSince(createdAt(cj), now),
      ...containerCells(objectAt(jobSpec, 'template', 'spec')),
      formatLabelSelector(jobSpec.selector),
    ];
  },
);
