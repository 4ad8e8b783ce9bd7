#!/usr/bin/env node
// Writes src/apiserver/http/protobuf/k8s-proto.gen.json, the field tables the protobuf request
// decoder walks. Wire facts (field numbers, types, repeated, maps) come from the generated.proto files of
// k8s.io/api and k8s.io/apimachinery; JSON facts (json name, inline embedding, pointer or omitempty, so a
// zero value is kept or dropped exactly as encoding/json would) come from the Go struct tags in the same
// modules (k8s.io/apiextensions-apiserver for CustomResourceDefinition). The modules are fetched into the Go module cache with `go mod download` (Go module proxy).
//
// Usage: node hack/gen-k8s-proto.mjs           write the file if it changed
//        node hack/gen-k8s-proto.mjs --check   exit 1 if the committed file is out of date
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = 'v0.32.10';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'src/apiserver/http/protobuf/k8s-proto.gen.json');

/** k8s.io/api package directory -> API group ('' is the core group). */
const API_GROUPS = {
  'core/v1': '', 'apps/v1': 'apps', 'batch/v1': 'batch', 'policy/v1': 'policy',
  'coordination/v1': 'coordination.k8s.io', 'rbac/v1': 'rbac.authorization.k8s.io',
  'scheduling/v1': 'scheduling.k8s.io', 'networking/v1': 'networking.k8s.io', 'storage/v1': 'storage.k8s.io',
  'events/v1': 'events.k8s.io', 'autoscaling/v1': 'autoscaling', 'autoscaling/v2': 'autoscaling',
  'admissionregistration/v1': 'admissionregistration.k8s.io', 'discovery/v1': 'discovery.k8s.io',
  'authentication/v1': 'authentication.k8s.io', 'authorization/v1': 'authorization.k8s.io',
  'certificates/v1': 'certificates.k8s.io', 'node/v1': 'node.k8s.io', 'flowcontrol/v1': 'flowcontrol.apiserver.k8s.io',
};
const MACHINERY = ['pkg/apis/meta/v1', 'pkg/runtime', 'pkg/util/intstr', 'pkg/api/resource'];
/** k8s.io/apiextensions-apiserver package directory -> API group. */
const EXTENSION_GROUPS = { 'pkg/apis/apiextensions/v1': 'apiextensions.k8s.io' };
/** Messages whose JSON form is not an object: the decoder knows each by its tag. */
const SPECIAL = {
  'apis.meta.v1.Time': 'time', 'apis.meta.v1.MicroTime': 'microtime', 'apis.meta.v1.Duration': 'duration',
  'apis.meta.v1.FieldsV1': 'json', 'runtime.RawExtension': 'json', 'api.resource.Quantity': 'quantity',
  'util.intstr.IntOrString': 'intstr',
  // apiextensions' JSON holds raw JSON bytes in field 1, as RawExtension does; the three unions have
  // custom JSON marshalers (a schema, or a bool / a schema list / a string list).
  'apiextensions.v1.JSON': 'json', 'apiextensions.v1.JSONSchemaPropsOrBool': 'schema-or-bool',
  'apiextensions.v1.JSONSchemaPropsOrArray': 'schema-or-array',
  'apiextensions.v1.JSONSchemaPropsOrStringArray': 'schema-or-strings',
};
const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'double']);

const shortName = (full) => full.replace(/^k8s\.io\.api\./, '').replace(/^k8s\.io\.apimachinery\.pkg\./, '')
  .replace(/^k8s\.io\.apiextensions_apiserver\.pkg\.apis\./, '');
const fail = (msg) => { throw new Error(msg); };

function moduleDirs() {
  const modules = ['api', 'apimachinery', 'apiextensions-apiserver'].map((m) => `k8s.io/${m}@${VERSION}`);
  const out = execFileSync('go', ['mod', 'download', '-json', ...modules], {
    cwd: tmpdir(), encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  const mods = JSON.parse(`[${out.replace(/\n}\s*\n?{/g, '\n},{')}]`);
  const dirs = {};
  for (const m of mods) dirs[m.Path] = m.Dir ?? fail(`go mod download ${m.Path}: ${m.Error}`);
  return dirs;
}

/** Flat proto2 files as go-to-protobuf writes them: a package and messages without nesting. */
function parseProto(text) {
  const src = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const pkg = /^package\s+([\w.]+)\s*;/m.exec(src)?.[1] ?? fail('proto without package');
  const messages = {};
  const rest = src.replace(/message\s+(\w+)\s*\{([^{}]*)\}/g, (_, name, body) => {
    const fields = [];
    for (const stmt of body.split(';').map((s) => s.trim()).filter(Boolean)) {
      const m = /^(optional|repeated|required)?\s*(map<\s*([\w.]+)\s*,\s*([\w.]+)\s*>|[\w.]+)\s+(\w+)\s*=\s*(\d+)$/.exec(stmt);
      if (!m) fail(`${pkg}.${name}: cannot parse "${stmt}"`);
      const resolve = (t) => (SCALARS.has(t) ? t : shortName(t.startsWith('.') ? t.slice(1) : `${pkg}.${t}`));
      if (/^(float|[us]int|s?fixed)/.test(m[2])) fail(`${pkg}.${name}.${m[5]}: unsupported type ${m[2]}`);
      fields.push({
        number: Number(m[6]), protoName: m[5], repeated: m[1] === 'repeated', map: Boolean(m[3]),
        type: resolve(m[4] ?? m[2]), keyType: m[3],
      });
    }
    messages[shortName(`${pkg}.${name}`)] = fields;
    return '';
  });
  if (/\bmessage\b/.test(rest)) fail(`${pkg}: nested messages are not supported`);
  return messages;
}

/** Go struct fields by protobuf number, and the named slice types (`type ExtraValue []string`). */
function parseGoTypes(dir) {
  const structs = {};
  const slices = new Set();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of text.matchAll(/^type (\w+) \[\]\w+$/gm)) slices.add(name);
    for (const [, name] of text.matchAll(/^type (\w+) struct ?\{\}$/gm)) structs[name] = { byNumber: {}, hasTypeMeta: false };
    for (const [, name, body] of text.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
      const fields = { byNumber: {}, hasTypeMeta: false };
      for (const line of body.split('\n')) {
        const m = /^\s*(?:(\w+)\s+)?([^\s`]+)\s+`([^`]*)`\s*$/.exec(line);
        if (!m) continue;
        const tags = Object.fromEntries([...m[3].matchAll(/(\w+):"([^"]*)"/g)].map((t) => [t[1], t[2]]));
        const [jsonName = '', ...opts] = (tags.json ?? '').split(',');
        if (!m[1] && /(^|\.)TypeMeta$/.test(m[2]) && opts.includes('inline')) fields.hasTypeMeta = true;
        if (!tags.protobuf) continue;
        const number = Number(tags.protobuf.split(',')[1]);
        fields.byNumber[number] = {
          goName: m[1] ?? m[2].replace(/^.*\./, ''), json: jsonName, inline: opts.includes('inline'),
          omitempty: opts.includes('omitempty'), pointer: m[2].startsWith('*'),
        };
      }
      structs[name] = fields;
    }
  }
  return { structs, slices };
}

function loadPackages(dirs) {
  const messages = {};
  const goTypes = {};
  const kinds = {};
  const load = (protoDir, goKey) => {
    const parsed = parseProto(readFileSync(path.join(protoDir, 'generated.proto'), 'utf8'));
    Object.assign(messages, parsed);
    goTypes[goKey] = parseGoTypes(protoDir);
    return goTypes[goKey];
  };
  for (const dir of MACHINERY) load(path.join(dirs['k8s.io/apimachinery'], dir), dir.replace(/^pkg\//, '').replaceAll('/', '.'));
  const groups = [
    ...Object.entries(API_GROUPS).map(([dir, group]) => [path.join(dirs['k8s.io/api'], dir), dir.replace('/', '.'), group]),
    ...Object.entries(EXTENSION_GROUPS).map(([dir, group]) => [
      path.join(dirs['k8s.io/apiextensions-apiserver'], dir), dir.replace(/^pkg\/apis\//, '').replace('/', '.'), group]),
  ];
  for (const [dir, pkg, group] of groups) {
    const { structs } = load(dir, pkg);
    const apiVersion = group ? `${group}/${pkg.split('.')[1]}` : 'v1';
    for (const [name, s] of Object.entries(structs)) {
      if (s.hasTypeMeta && messages[`${pkg}.${name}`]) kinds[`${apiVersion}/${name}`] = `${pkg}.${name}`;
    }
  }
  kinds['meta.k8s.io/v1/DeleteOptions'] = 'apis.meta.v1.DeleteOptions';
  return { messages, goTypes, kinds };
}

/** One field as [jsonName, type, flags?]; flags: r repeated, m map, i inline, k keep a zero scalar. */
function fieldEntry(msgName, field, go) {
  if (!go) fail(`${msgName}: no Go field for proto field ${field.number} (${field.protoName})`);
  if (field.map && field.keyType !== 'string') fail(`${msgName}.${field.protoName}: map key ${field.keyType}`);
  const scalar = SCALARS.has(field.type) && !field.repeated && !field.map;
  const flags = (field.repeated && !field.map ? 'r' : '') + (field.map ? 'm' : '') + (go.inline ? 'i' : '')
    + (scalar && (go.pointer || !go.omitempty) ? 'k' : '');
  const name = go.inline ? '' : go.json || go.goName;
  return flags ? [name, field.type, flags] : [name, field.type];
}

function buildDescriptor({ messages, goTypes, kinds }) {
  const out = {};
  const queue = Object.values(kinds);
  while (queue.length) {
    const name = queue.shift();
    if (out[name] !== undefined) continue;
    const fields = messages[name] ?? fail(`unknown message ${name}`);
    const [goPkg, goName] = [name.replace(/\.\w+$/, ''), name.replace(/^.*\./, '')];
    if (SPECIAL[name]) { out[name] = SPECIAL[name]; continue; }
    if (goTypes[goPkg]?.slices.has(goName)) {
      if (fields.length !== 1 || !fields[0].repeated || !SCALARS.has(fields[0].type)) fail(`${name}: odd list type`);
      out[name] = `list:${fields[0].type}`;
      continue;
    }
    const struct = goTypes[goPkg]?.structs[goName] ?? fail(`${name}: no Go struct`);
    const entry = {};
    for (const f of fields) {
      if (struct.byNumber[f.number]?.json === '-') continue;
      entry[f.number] = fieldEntry(name, f, struct.byNumber[f.number]);
      if (!SCALARS.has(f.type)) queue.push(f.type);
    }
    out[name] = entry;
  }
  return out;
}

function render(kinds, messages) {
  const sorted = (obj) => Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(obj[k])}`).join(',\n');
  const header = `Generated by hack/gen-k8s-proto.mjs from the k8s.io/api, k8s.io/apimachinery and k8s.io/apiextensions-apiserver ${VERSION} `
    + 'wire definitions (generated.proto, Go struct tags), Copyright The Kubernetes Authors, Apache-2.0. DO NOT EDIT.';
  return `{"header":${JSON.stringify(header)},\n"kinds":{\n${sorted(kinds)}},\n"messages":{\n${sorted(messages)}}}\n`;
}

const check = process.argv.includes('--check');
const loaded = loadPackages(moduleDirs());
const text = render(loaded.kinds, buildDescriptor(loaded));
const current = existsSync(OUT) ? readFileSync(OUT, 'utf8') : '';
if (check) {
  if (current !== text) {
    console.error(`${path.relative(ROOT, OUT)} is out of date: run node hack/gen-k8s-proto.mjs`);
    process.exit(1);
  }
  console.log(`${path.relative(ROOT, OUT)} is up to date`);
} else if (current !== text) {
  writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(ROOT, OUT)} (${text.length} bytes)`);
} else {
  console.log(`${path.relative(ROOT, OUT)} unchanged`);
}
