// A node:test reporter that prints, after the run, each failed test with its suite path, file and
// error, so the end of a long CI log says what failed without scrolling back through TAP.
export default async function* testFailures(source) {
  const paths = new Map(); // file -> names of the tests open at each nesting level
  const failed = [];
  for await (const { type, data } of source) {
    const path = paths.get(data?.file) ?? paths.set(data?.file, []).get(data?.file);
    if (type === 'test:start') path[data.nesting] = data.name;
    // a failing test marked todo is a known difference, not a failure
    if (type !== 'test:fail' || data.todo || data.details?.error?.failureType === 'subtestsFailed') continue;
    const name = [...path.slice(0, data.nesting), data.name].join(' > ');
    failed.push(`- ${data.file ?? '?'}\n  ${name}\n  ${String(data.details?.error?.cause ?? data.details?.error).split('\n').slice(0, 6).join('\n  ')}`);
  }
  if (failed.length > 0) yield `\n# ${failed.length} failed:\n${failed.join('\n')}\n`;
}
