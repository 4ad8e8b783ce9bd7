import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { kruiseVersion } from './version.js';

test('the version is package.json\'s, which scripts/image.sh tags the image with', async () => {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(kruiseVersion, pkg.version);
});
