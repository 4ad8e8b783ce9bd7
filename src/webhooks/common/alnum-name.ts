/**
 * The name rule OpenKruise's webhooks apply to BroadcastJob, AdvancedCronJob and SidecarSet
 * names: `^[a-zA-Z0-9\-]+$`, at most 63 characters, worded as apimachinery's RegexError and
 * MaxLenError print it. Shared by the BroadcastJob, AdvancedCronJob and SidecarSet webhooks.
 */
import { field, type FieldError } from '../../machinery/errors.js';

const namePattern = '^[a-zA-Z0-9\\-]+$';
const nameRe = /^[a-zA-Z0-9-]+$/;
const maxLength = 63;

/** `subject` starts the message as upstream words it: `BroadcastJob`, `AdvancedCronJob`, `sidecarset`. */
export function validateAlnumDashName(subject: string, name: string | undefined, path = 'metadata.name'): FieldError[] {
  if (!name) return [field.required(path, 'name or generateName is required')];
  const errs: FieldError[] = [];
  if (!nameRe.test(name)) {
    errs.push(field.invalid(path, name, `${subject} name must consist of alphanumeric characters or '-' `
      + `(e.g. 'example-com', regex used for validation is '${namePattern}')`));
  }
  if (name.length > maxLength) errs.push(field.invalid(path, name, `must be no more than ${maxLength} characters`));
  return errs;
}
