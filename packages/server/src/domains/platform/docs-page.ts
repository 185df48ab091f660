import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

// A direct dependency, so pnpm links it into this package's node_modules.
const BUNDLE = new URL(
  '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js',
  import.meta.url,
);

/** Scalar's configuration (`@scalar/types` ApiReferenceConfiguration); `__ORIGIN__` becomes the page's origin. */
const SCALAR_OPTIONS = {
  url: '/openapi.json',
  withDefaultFonts: false,
  hideClientButton: false,
  servers: [{ url: '__ORIGIN__', description: 'This server' }],
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  telemetry: false,
  documentDownloadType: 'json',
};

export interface DocsPage {
  html: string;
  /** A hash of the page, its ETag. */
  etag: string;
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
    // An offline product: the server is the one this page came from (not the contract's example), and
    // none of the hosted service's extras (AI agent, MCP, developer toolbar, telemetry) show.
    const init = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_OPTIONS).replace(
      '"__ORIGIN__"',
      'window.location.origin',
    )});`;
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
    return { html, csp, etag: createHash('sha256').update(html).digest('hex').slice(0, 32) };
  });
  return page;
}
