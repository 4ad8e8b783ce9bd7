/**
 * Import rules of the source tree (docs/design/layers.md explains them). Every rule has a name that
 * a violation prints, so a failing `npm test` says which rule an import broke.
 *
 * Folders under src/ form layers; each may import only the layers listed for it (and itself).
 * Tests and test kits may also import the test kit in src/testing and the embedded plane.
 */
const layers = {
  api: [],
  machinery: ['api'],
  features: ['api', 'machinery'],
  client: ['api', 'machinery'],
  runtime: ['api', 'machinery', 'client'],
  control: ['api', 'machinery', 'client', 'runtime'],
  controllers: ['api', 'machinery', 'client', 'runtime', 'control'],
  webhooks: ['api', 'machinery', 'client', 'runtime', 'control'],
  daemon: ['api', 'machinery', 'client', 'runtime', 'control'],
  apiserver: ['api', 'machinery'],
  cluster: ['api', 'machinery', 'client', 'runtime', 'control', 'daemon'],
  install: ['api', 'machinery', 'client'],
  dashboard: ['api', 'machinery', 'client', 'runtime'],
  cmd: ['api', 'machinery', 'features', 'client', 'runtime', 'control', 'controllers', 'webhooks', 'daemon', 'apiserver', 'cluster', 'install', 'dashboard'],
  testing: ['api', 'machinery', 'features', 'client', 'runtime', 'control', 'controllers', 'webhooks', 'daemon', 'apiserver', 'cluster', 'install', 'dashboard'],
  e2e: ['api', 'machinery', 'features', 'client', 'runtime', 'control', 'controllers', 'webhooks', 'daemon', 'apiserver', 'cluster', 'install', 'testing', 'dashboard'],
  bench: ['api', 'machinery', 'features', 'client', 'runtime', 'control', 'controllers', 'webhooks', 'daemon', 'apiserver', 'cluster', 'install', 'testing', 'e2e', 'dashboard'],
};
const testFile = '(\\.test\\.ts|test-?kit\\.ts|\\.fixture\\.ts)$';
const testExtras = ['machinery', 'features', 'client', 'runtime', 'control', 'testing', 'apiserver', 'cluster', 'controllers', 'webhooks', 'daemon', 'install'];

const layerRules = Object.entries(layers).flatMap(([layer, allowed]) => [
  {
    name: `layer-${layer}`,
    comment: `src/${layer} may import only: ${allowed.join(', ') || '(nothing)'} (besides itself)`,
    severity: 'error',
    from: { path: `^src/${layer}/`, pathNot: testFile },
    to: { path: '^src/', pathNot: `^src/(${[layer, ...allowed].join('|')})/` },
  },
  {
    name: `layer-${layer}-tests`,
    comment: `tests of src/${layer} may import what it may, the test kit and the embedded plane`,
    severity: 'error',
    from: { path: `^src/${layer}/.*${testFile}` },
    to: { path: '^src/', pathNot: `^src/(${[...new Set([layer, ...allowed, ...testExtras])].join('|')})/` },
  },
]);

/** Inside the embedded API server: storage <- registry <- admission <- http, with leaves beside them. */
const apiserverInner = {
  storage: [],
  printers: [],
  auth: [],
  authz: ['registry'],
  openapi: ['printers'],
  registry: ['storage', 'printers', 'openapi'],
  admission: ['registry', 'authz'], // NodeRestriction shares the Node mode's idea of a node and of a pod's references
  system: ['registry', 'admission'],
  http: ['registry', 'admission', 'auth', 'authz', 'openapi', 'printers'],
  streaming: ['authz'],
};
const innerRules = Object.entries(apiserverInner).map(([part, allowed]) => ({
  name: `apiserver-${part}`,
  comment: `src/apiserver/${part} may reach only these parts of the API server: ${allowed.join(', ') || '(none)'}`,
  severity: 'error',
  from: { path: `^src/apiserver/${part}/`, pathNot: testFile },
  to: { path: '^src/apiserver/', pathNot: `^src/apiserver/(${[part, ...allowed].join('|')})/` },
}));

/**
 * One folder per controller: a controller never imports another one's folder (shared logic lives in
 * src/control); only tests reach another controller, and only through its index.ts to register it.
 */
function oneFolderEach(what, root) {
  return [
    {
      name: `one-folder-per-${what}`,
      comment: `a ${what} never imports another one's folder; shared logic lives in src/control`,
      severity: 'error',
      from: { path: `^${root}/([^/]+)/` },
      to: { path: `^${root}/[^/]+/`, pathNot: [`^${root}/$1/`, `^${root}/[^/]+/index\\.ts$`] },
    },
    {
      name: `one-folder-per-${what}-index`,
      comment: `only tests reach another ${what}, and only through its index.ts`,
      severity: 'error',
      from: { path: `^${root}/([^/]+)/`, pathNot: testFile },
      to: { path: `^${root}/[^/]+/index\\.ts$`, pathNot: `^${root}/$1/` },
    },
  ];
}

module.exports = {
  forbidden: [
    ...layerRules,
    ...innerRules,
    ...oneFolderEach('controller', 'src/controllers'),
    ...oneFolderEach('builtin-controller', 'src/cluster/controllers'),
    {
      name: 'one-folder-per-webhook',
      comment: 'a kind\'s webhook never imports another kind\'s webhook; shared checks live in webhooks/common, deletion protection (a feature of many kinds) in webhooks/protection, and the server machinery (server, certs, conversion, configuration) is shared; a kind\'s pod step implements the contracts of webhooks/pod (step.ts, validation-step.ts) and is listed in webhooks/pod/steps.ts',
      severity: 'error',
      // pod/steps.ts is the one list where each feature registers its pod step (from its own folder, typed by pod/)
      from: { path: '^src/webhooks/([^/]+)/', pathNot: '^src/webhooks/pod/steps\\.ts$' },
      to: { path: '^src/webhooks/[^/]+/', pathNot: '^src/webhooks/($1|common|protection|server|certs|conversion|configuration|pod)/' },
    },
    {
      name: 'no-test-code-in-production',
      comment: 'production code never imports tests, test kits or src/testing',
      severity: 'error',
      from: { path: '^src/', pathNot: [testFile, '^src/(testing|e2e|bench)/'] },
      to: { path: [testFile, '^src/testing/'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'every import resolves to a file or a declared dependency',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
