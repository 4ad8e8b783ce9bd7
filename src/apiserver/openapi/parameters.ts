/**
 * Query and path parameters of the resource operations, with upstream's names and descriptions.
 * kubectl looks for `fieldValidation` (in: query) on PATCH operations to decide whether the
 * server validates fields itself (cli-runtime query_param_verifier_v3).
 */

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  required?: boolean;
  schema: { type: 'string' | 'boolean' | 'integer'; uniqueItems?: boolean };
}

function query(name: string, type: Parameter['schema']['type'], description: string): Parameter {
  return { name, in: 'query', description, schema: { type, uniqueItems: true } };
}

function pathParam(name: string, description: string): Parameter {
  return { name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } };
}

export const params = {
  name: (kind: string) => pathParam('name', `name of the ${kind}`),
  namespace: pathParam('namespace', 'object name and auth scope, such as for teams and projects'),
  pretty: query('pretty', 'string', "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget)."),
  dryRun: query('dryRun', 'string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed'),
  fieldManager: query('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.'),
  fieldValidation: query('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.'),
  force: query('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.'),
  allowWatchBookmarks: query('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK".'),
  continue: query('continue', 'string', 'The continue option should be set when retrieving more results from the server.'),
  fieldSelector: query('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  labelSelector: query('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  limit: query('limit', 'integer', 'limit is a maximum number of responses to return for a list call.'),
  resourceVersion: query('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from.'),
  resourceVersionMatch: query('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls.'),
  sendInitialEvents: query('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`.'),
  timeoutSeconds: query('timeoutSeconds', 'integer', 'Timeout for the list/watch call.'),
  watch: query('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.'),
  gracePeriodSeconds: query('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer.'),
  orphanDependents: query('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.'),
  propagationPolicy: query('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'."),
};

export const listParams = [
  params.allowWatchBookmarks, params.continue, params.fieldSelector, params.labelSelector, params.limit,
  params.resourceVersion, params.resourceVersionMatch, params.sendInitialEvents, params.timeoutSeconds, params.watch,
];
export const writeParams = [params.dryRun, params.fieldManager, params.fieldValidation];
export const patchParams = [params.dryRun, params.fieldManager, params.fieldValidation, params.force];
export const deleteParams = [params.dryRun, params.gracePeriodSeconds, params.orphanDependents, params.propagationPolicy];
