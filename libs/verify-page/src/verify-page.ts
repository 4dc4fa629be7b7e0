import { createHash } from 'node:crypto';
import { inlineHash, pageSecurity, type PageSecurity } from '#libs/http';
import { PAGE_BODY } from './page/page-body.js';
import { PAGE_STYLE } from './page/page-style.js';
import { VERIFY_SCRIPT } from './verify-script.js';

export interface VerifyPage {
  html: string;
  /** CSP sources (`'sha256-…'`) of the page's one inline script and its one style block. */
  scriptHashes: string[];
  styleHashes: string[];
  /** Helmet's options for `securePage`: the page's CSP, its script and style allowed by hash and nothing else. */
  security: PageSecurity;
  /** A strong ETag of the page's bytes. */
  etag: string;
}

/**
 * The CSP as a meta element too, so that a copy saved to disk keeps it (frame-ancestors only works as a header).
 * Trusted Types make any markup sink (innerHTML and the like) throw: the script puts text only.
 */
function metaPolicy(scriptHashes: string[], styleHashes: string[]): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.join(' ')}`,
    `style-src ${styleHashes.join(' ')}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

function build(): VerifyPage {
  const scriptHashes = [inlineHash(VERIFY_SCRIPT)];
  const styleHashes = [inlineHash(PAGE_STYLE)];
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${metaPolicy(scriptHashes, styleHashes)}">
<meta name="referrer" content="no-referrer">
<title>Verify a decision's proof: AI-log gateway</title>
<style>${PAGE_STYLE}</style>
</head>
<body>${PAGE_BODY}<script>${VERIFY_SCRIPT}</script>
</body>
</html>
`;
  const security = pageSecurity({
    scriptSrc: scriptHashes,
    styleSrc: styleHashes,
    connectSrc: ["'none'"],
    requireTrustedTypesFor: ["'script'"],
    trustedTypes: ["'none'"],
  });
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 22)}"`;
  return { html, scriptHashes, styleHashes, security, etag };
}

let page: VerifyPage | undefined;

/** The judges' verifier page (GET /verify): one self-contained HTML file, the same bytes for everyone, built once. */
export function renderVerifyPage(): VerifyPage {
  return (page ??= build());
}
