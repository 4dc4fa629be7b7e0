import { inlineHash, pageSecurity } from '#libs/http';

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.15); width: 22rem; }
  h1 { font-size: 1.2rem; margin: 0 0 1rem; }
  input, button { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; margin-top: .5rem; }
  button { background: #1f6feb; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  #error { color: #b42318; min-height: 1.2rem; margin-top: .5rem; }
`;

/** The page's own script (/admin/sign-in.js), its one style block by hash, and the sign-in POST: nothing else. */
export const SIGN_IN_SECURITY = pageSecurity({
  scriptSrc: ["'self'"],
  styleSrc: [inlineHash(STYLE)],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
});

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * The dashboard's sign-in page: one field for the admin token, posted as JSON to `action` by `script`. `next`, already
 * checked to be a dashboard path, is only an escaped attribute. No inline script, no external assets.
 */
export function signInPage(action: string, script: string, next: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>AI-log gateway: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style>
<script src="${escapeHtml(script)}" defer></script>
</head>
<body>
<form id="sign-in" method="post" action="${escapeHtml(action)}" data-next="${escapeHtml(next)}">
  <h1>Queue dashboard</h1>
  <label for="token">Admin token (ADMIN_TOKEN)</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  <button type="submit">Sign in</button>
  <div id="error" role="alert"></div>
</form>
</body>
</html>`;
}
