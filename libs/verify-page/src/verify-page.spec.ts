import { createHash } from 'node:crypto';
import { PAGE_STYLE } from './page/page-style.js';
import { renderVerifyPage } from './verify-page.js';
import { VERIFY_SCRIPT } from './verify-script.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('the verifier page', () => {
  const page = renderVerifyPage();

  it('is one file: its script and style inline, once each, and nothing it would load', () => {
    expect(page.html.split('<script').length - 1).toBe(1);
    expect(page.html).toContain(`<script>${VERIFY_SCRIPT}</script>`);
    expect(page.html.split('<style').length - 1).toBe(1);
    expect(page.html).toContain(`<style>${PAGE_STYLE}</style>`);
    expect(page.html).not.toMatch(/\b(?:src|href|srcset|action)\s*=/i);
    expect(page.html).not.toMatch(/url\(|@import|<(?:link|img|iframe|object|embed|base)\b/i);
    expect(page.html).not.toMatch(/\sstyle\s*=|\son[a-z]+\s*=/i);
    expect(renderVerifyPage()).toBe(page);
  });

  it('allows exactly its script and style by hash, connects nowhere, and keeps that CSP in a copy saved to disk', () => {
    expect(page.scriptHashes).toEqual([sha256(VERIFY_SCRIPT)]);
    expect(page.styleHashes).toEqual([sha256(PAGE_STYLE)]);
    const csp = page.security.contentSecurityPolicy;
    expect(csp).toMatchObject({
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: page.scriptHashes,
        styleSrc: page.styleHashes,
        connectSrc: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    });
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(page.html)?.[1] ?? '';
    expect(meta.split('; ')).toEqual(
      expect.arrayContaining(["default-src 'none'", `script-src ${page.scriptHashes[0]}`, `style-src ${page.styleHashes[0]}`, "connect-src 'none'"]),
    );
  });

  it('has a script that is ASCII, cannot end its element early, and has no markup sink and no network call', () => {
    expect(/^[\x20-\x7e\n]*$/.test(VERIFY_SCRIPT)).toBe(true);
    expect(VERIFY_SCRIPT).not.toMatch(/<\/script|<!--|<script/i);
    expect(VERIFY_SCRIPT).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|fetch\(|XMLHttpRequest|WebSocket|sendBeacon|import\(/,
    );
  });

  it('labels every field, and has every element its script looks up', () => {
    const ids = [...VERIFY_SCRIPT.matchAll(/\$\('([a-z-]+)'\)/g)].map(([, id]) => id);
    expect(ids.length).toBeGreaterThan(15);
    for (const id of ids) expect([id, page.html.includes(`id="${id}"`)]).toEqual([id, true]);
    for (const [, id] of page.html.matchAll(/<(?:input|textarea)[^>]* id="([^"]+)"/g))
      expect([id, page.html.includes(`<label for="${id}">`)]).toEqual([id, true]);
  });
});
