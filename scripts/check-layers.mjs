#!/usr/bin/env node
// Enforces the import direction between source folders (STYLE.md 3.1):
// api <- machinery <- client <- runtime <- {control, controllers, webhooks, daemon}; the embedded
// control plane is never imported by Kruise code; only cmd/, testing/, e2e/ and bench/ see everything.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const root = resolve('src');
const allowed = {
  api: ['api'],
  machinery: ['api', 'machinery'],
  client: ['api', 'machinery', 'client'],
  runtime: ['api', 'machinery', 'client', 'runtime'],
  control: ['api', 'machinery', 'client', 'runtime', 'control'],
  controllers: ['api', 'machinery', 'client', 'runtime', 'control', 'controllers'],
  webhooks: ['api', 'machinery', 'client', 'runtime', 'control', 'webhooks'],
  daemon: ['api', 'machinery', 'client', 'runtime', 'daemon'],
  apiserver: ['api', 'machinery', 'client', 'runtime', 'apiserver'],
  cluster: ['api', 'machinery', 'client', 'runtime', 'daemon', 'cluster'],
  install: ['api', 'machinery', 'client', 'install'],
};

function files(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const problems = [];
for (const file of files(root)) {
  // tests and their support kits may reach the test kit in src/testing
  if (file.endsWith('.test.ts') || /(^|\/)test-?kit\.ts$/.test(file)) continue;
  const layer = relative(root, file).split('/')[0];
  const rules = allowed[layer];
  if (!rules) continue;
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:import|export)[^'"]*from\s+'(\.[^']+)'/g)) {
    const target = relative(root, resolve(dirname(file), m[1])).split('/')[0];
    if (!rules.includes(target)) problems.push(`${relative('.', file)} (${layer}) imports ${m[1]} (${target})`);
  }
  // controllers never import each other (one folder per controller); the registry index.ts imports them all
  const own = relative(root, file).split('/')[1];
  if (layer === 'controllers' && own !== 'index.ts') {
    for (const m of text.matchAll(/from\s+'(\.[^']+)'/g)) {
      const parts = relative(root, resolve(dirname(file), m[1])).split('/');
      if (parts[0] === 'controllers' && parts.length > 2 && parts[1] !== own) problems.push(`${relative('.', file)} imports another controller: ${m[1]}`);
    }
  }
}
if (problems.length) {
  console.error(`layer violations:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('layers ok');
