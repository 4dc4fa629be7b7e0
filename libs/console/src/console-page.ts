import { createHash } from 'node:crypto';
import { pageSecurity, type PageSecurity } from '#libs/http';

export interface ConsolePage {
  html: string;
  /** A strong ETag of the page's bytes. */
  etag: string;
}

/**
 * The console's CSP: its own script and stylesheet files only, calls to this gateway only, no inline script or
 * style, no eval. uPlot sizes and colours its elements through element.style (CSSOM), which style-src does not
 * govern, so no 'unsafe-inline' is needed. Trusted Types make any markup sink throw: the console renders text only.
 */
export const CONSOLE_SECURITY: PageSecurity = pageSecurity({
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  connectSrc: ["'self'"],
  requireTrustedTypesFor: ["'script'"],
  trustedTypes: ["'none'"],
});

/** The HTML shell: no inline script or style, the bundle's two files by their content-hashed names. */
export function consolePage(script: string, style: string): ConsolePage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Console: AI-log gateway</title>
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"><noscript>The console needs JavaScript.</noscript></div>
</body>
</html>
`;
  return { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"` };
}
