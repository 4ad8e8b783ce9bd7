import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const generator = fileURLToPath(new URL('../../../hack/gen-core-types.mjs', import.meta.url));

test('the built-in kinds are what hack/gen-core-types.mjs generates from the installed client-node models', () => {
  const run = spawnSync(process.execPath, [generator, '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});
