// Bundles the dashboard page (src/dashboard/ui, Preact) with esbuild into dist/dashboard/ui/app.js and
// app.css, which the backend serves; the page's types are checked by `tsc -p src/dashboard/ui`.
import { build } from 'esbuild';

const started = Date.now();
const result = await build({
  entryPoints: ['src/dashboard/ui/app.tsx'],
  outfile: 'dist/dashboard/ui/app.js',
  bundle: true, minify: true, format: 'iife', target: ['es2020'], jsx: 'automatic', jsxImportSource: 'preact',
  legalComments: 'none', metafile: true, logLevel: 'warning',
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`dashboard bundle: ${(bytes / 1024).toFixed(1)} KiB in ${Date.now() - started} ms`);
