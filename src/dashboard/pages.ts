/**
 * The two HTML documents the backend writes itself: the sign-in page (served with 401, so nothing
 * but the form is readable anonymously) and the shell that loads the bundle built from
 * src/dashboard/ui (docs/design/dashboard.md §5).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function loginPage(base: string, message?: string, keyHint = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kruise dashboard: sign in</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px system-ui,sans-serif;background:#f4f6fa;color:#1d2433;display:grid;place-items:center;height:100vh;margin:0}
form{background:#fff;padding:28px 32px;border-radius:10px;box-shadow:0 2px 12px #0002;width:380px}h1{font-size:19px;margin:0 0 6px}
p{color:#5b6478;font-size:13px;margin:0 0 16px}input{width:100%;box-sizing:border-box;padding:9px;border:1px solid #c5cbd8;border-radius:6px;font:13px monospace}
button{margin-top:14px;width:100%;padding:9px;border:0;border-radius:6px;background:#2f6fed;color:#fff;font-weight:600;cursor:pointer}.err{color:#c4302b}</style></head>
<body><form method="post" action="${base}login"><h1>Kruise dashboard</h1>
<p>Sign in with a bearer token of this cluster (the <code>token</code> of your kubeconfig user${keyHint ? ', or the login key <code>kruise dashboard</code> printed' : ''}).</p>
${message ? `<p class="err" id="login-error">${escapeHtml(message)}</p>` : ''}
<input name="token" type="password" placeholder="token" autocomplete="off" autofocus required><button type="submit">Sign in</button></form></body></html>`;
}

export function shellPage(base: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kruise dashboard</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><link rel="stylesheet" href="${base}app.css">
</head><body><div id="app"></div><script>window.DASHBOARD_BASE=${JSON.stringify(base)}</script><script src="${base}app.js"></script></body></html>`;
}

/** The bundle `npm run build` writes next to the compiled backend (dist/dashboard/ui/). */
export function loadBundle(): { js: string; css: string } | undefined {
  try {
    const dir = new URL('./ui/', import.meta.url);
    return { js: readFileSync(fileURLToPath(new URL('app.js', dir)), 'utf8'), css: readFileSync(fileURLToPath(new URL('app.css', dir)), 'utf8') };
  } catch {
    return undefined;
  }
}
