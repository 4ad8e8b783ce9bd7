#!/usr/bin/env node
// Runs every compiled test file (dist/**/*.test.js) with node's test runner.
// Node 20 does not expand globs in `node --test`, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) find(p, out);
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const filter = process.argv[2];
const files = find('dist').filter((f) => !filter || f.includes(filter)).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, [
  '--test', '--test-concurrency=2', '--test-timeout=180000',
  '--test-reporter=tap', '--test-reporter-destination=stdout',
  '--test-reporter=./scripts/test-failures.mjs', '--test-reporter-destination=stdout',
  ...files,
], {
  stdio: 'inherit',
  // in-process informers get deep-frozen objects: a controller that modifies its cache throws
  env: { KRUISE_FREEZE_WATCHED: '1', ...process.env },
});
process.exit(result.status ?? 1);
