import { readFile } from 'node:fs/promises';

// A direct dependency, so pnpm links it into this package's node_modules.
const BUNDLE = new URL(
  '../../../node_modules/@scalar/api-reference/dist/browser/standalone.js',
  import.meta.url,
);
let page: Promise<string> | undefined;

/**
 * The API reference page: Scalar's standalone bundle inlined (no CDN, no extra route), reading
 * `/openapi.json`. Default web fonts are off so the page makes no third-party request.
 */
export function docsPage(): Promise<string> {
  page ??= readFile(BUNDLE, 'utf8').then((js) => {
    const safe = js.replace(/<\/script/gi, '<\\/script');
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Travel Service API reference</title></head>
<body>
<div id="app"></div>
<script>${safe}</script>
<script>Scalar.createApiReference('#app', { url: '/openapi.json', withDefaultFonts: false, hideClientButton: false });</script>
</body>
</html>`;
  });
  return page;
}
