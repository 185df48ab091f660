import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

// A direct dependency, so pnpm links it into this package's node_modules.
const BUNDLE = new URL(
  '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js',
  import.meta.url,
);

export interface DocsPage {
  html: string;
  /** The page's Content-Security-Policy: its two inline scripts by hash, nothing from elsewhere. */
  csp: string;
}

let page: Promise<DocsPage> | undefined;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The API reference page: Scalar's standalone bundle inlined (no CDN, no extra route), reading
 * `/openapi.json`. Default web fonts are off so the page makes no third-party request.
 *
 * Its CSP allows exactly the two inline scripts (by hash), the styles Scalar injects at run time
 * (`'unsafe-inline'` styles: it builds them in the browser), data:/blob: images and fonts it embeds,
 * and requests to this origin (the contract; "Try it" calls the API here). `frame-ancestors 'none'`
 * (with `X-Frame-Options: DENY` for old browsers) keeps the page out of other sites' frames.
 */
export function docsPage(): Promise<DocsPage> {
  page ??= readFile(BUNDLE, 'utf8').then((js) => {
    const bundle = js.replace(/<\/script/gi, '<\\/script');
    const init =
      "Scalar.createApiReference('#app', { url: '/openapi.json', withDefaultFonts: false, hideClientButton: false });";
    const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Travel Service API reference</title></head>
<body>
<div id="app"></div>
<script>${bundle}</script>
<script>${init}</script>
</body>
</html>`;
    const csp = [
      "default-src 'none'",
      `script-src ${sha256(bundle)} ${sha256(init)}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "worker-src 'self' blob:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    return { html, csp };
  });
  return page;
}
