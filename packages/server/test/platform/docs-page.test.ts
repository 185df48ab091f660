/// <reference lib="dom" />
/**
 * /docs as a user meets it, in headless Chromium against the real server: the page loads offline, its
 * server is the one it came from (not the contract's example), the hosted service's extras (AI agent,
 * MCP, deploy) are not there, no example shows the int64 bound, and "Test request" on GET /health/ sends
 * the request to this server and shows its answer. Then the transport: /docs and /openapi.json served as
 * they are until the start-up compression is done (never compressed on a request), then compressed
 * when asked (br, gzip), revalidated by ETag (304), and large JSON answers compressed too.
 *
 * Chromium comes from Debian's `chromium` package (.ci/run installs it); CHROMIUM_PATH points elsewhere.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../sandbox/testing.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Polls the page until `probe` returns a value (the page renders asynchronously); fails at the deadline. */
async function waitFor<T>(
  page: Page,
  what: string,
  probe: () => T | null | undefined,
  ms = 60_000,
): Promise<T> {
  const handle = await page.waitForFunction(probe, { timeout: ms, polling: 100 }).catch((err) => {
    throw new Error(`${what}: ${(err as Error).message}`);
  });
  return (await handle.jsonValue()) as T;
}

describe('/docs in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    expect(
      existsSync(CHROMIUM),
      `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
    ).toBe(true);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('serves this server, no SaaS extras, realistic examples; "Test request" on GET /health/ reads the answer', async () => {
    const page = await browser.newPage();
    const offsite: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:') && !r.url().startsWith('blob:'))
        offsite.push(r.url());
    });
    await page.goto(`${server.url}/docs`, { waitUntil: 'domcontentloaded', timeout: 120_000 });
    // The server card names the origin the page came from.
    const card = await waitFor(
      page,
      'the server card',
      () =>
        [...document.querySelectorAll('.scalar-reference-intro-server')].map(
          (e) => (e as HTMLElement).innerText,
        )[0],
    );
    expect(card).toContain(server.url);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain('Multi-Supplier Travel Service API');
    for (const extra of ['Ask AI', 'Generate MCP', 'Connect MCP', 'Deploy', 'localhost:8080'])
      expect(text, extra).not.toContain(extra);
    expect(text).not.toContain('9007199254740991');

    // Open the health operation's "Test Request", send it, and read the answer in the client.
    await waitFor(page, 'the platform group', () => {
      const b = [...document.querySelectorAll('button')].find((x) =>
        x.innerText.trim().startsWith('Open Group - platform'),
      );
      if (!b) return null;
      b.click();
      return true;
    });
    await waitFor(page, 'the health operation', () =>
      document.getElementById('api-1/tag/platform/GET/health/'),
    );
    await page.evaluate(() =>
      document.getElementById('api-1/tag/platform/GET/health/')?.scrollIntoView({ block: 'start' }),
    );
    await waitFor(page, 'the Test Request button', () => {
      const b = [...document.querySelectorAll('button')].find((x) => x.innerText.includes('(get /health/)'));
      if (!b) return null;
      b.click();
      return true;
    });
    const target = await waitFor(page, 'the client Send button', () => {
      const b = [...document.querySelectorAll('button')].find(
        (x) => x.innerText.trim().startsWith('Send') && x.innerText.includes('Send get request to'),
      );
      if (!b) return null;
      const label = b.innerText;
      b.click();
      return label;
    });
    expect(target).toContain(`${server.url}/health/`);
    const answer = await waitFor(page, 'the response in the client', () => {
      const client = [...document.querySelectorAll('.scalar-app-layout')].map(
        (d) => (d as HTMLElement).innerText,
      )[0];
      return client && /Status:\s*200 OK/.test(client) && client.includes('"components"') ? client : null;
    });
    expect(answer).toMatch(/"status": "ok"/);
    expect(answer).toMatch(/"database": \{/);
    // Offline product: nothing was fetched from anywhere else.
    expect(offsite).toEqual([]);
    await page.close();
  }, 180_000);
});

describe('compression and caching', () => {
  /** A GET whose body stays as sent (fetch would decompress it). */
  interface Raw {
    status: number;
    headers: { get(name: string): string | null };
    bytes: Buffer;
    text(): string;
  }
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Raw>((resolve, reject) => {
      const req = request(`${server.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: { get: (n) => (res.headers[n.toLowerCase()] as string | undefined) ?? null },
            bytes,
            text: () => bytes.toString(),
          });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it('the first visit never waits for compression: identity until the start-up pass is done, then br', async () => {
    // This server has not compressed its documents yet (main.ts starts that once it listens): a browser's
    // first visit gets the page as it is, from memory, not after a Brotli pass over 4.35 MB.
    const t0 = performance.now();
    const first = await get('/docs', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    const ms = performance.now() - t0;
    expect(first.status).toBe(200);
    expect(first.headers.get('content-encoding')).toBeNull();
    expect(first.text()).toContain('<div id="app">');
    expect(ms).toBeLessThan(1000);
    const contract = await get('/openapi.json', { 'accept-encoding': 'br' });
    expect(contract.headers.get('content-encoding')).toBeNull();
    await server.compressDocuments();
    const later = await get('/docs', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(later.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(later.bytes).toString()).toBe(first.text());
  });

  it('/docs: br or gzip when asked, identity otherwise, an ETag per representation, 304 when current', async () => {
    const plain = await get('/docs', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = plain.text();
    expect(html).toContain('<div id="app">');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);

    const br = await get('/docs', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = br.bytes;
    expect(brotliDecompressSync(brBytes).toString()).toBe(html);
    expect(brBytes.byteLength).toBeLessThan(html.length / 3);
    expect(br.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const gz = await get('/docs', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.bytes).toString()).toBe(html);

    const tags = new Set([plain, br, gz].map((r) => r.headers.get('etag')));
    expect(tags.size).toBe(3);
    const again = await get('/docs', {
      'accept-encoding': 'br',
      'if-none-match': br.headers.get('etag') as string,
    });
    expect(again.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    // Another representation's tag does not match.
    const other = await get('/docs', {
      'accept-encoding': 'br',
      'if-none-match': gz.headers.get('etag') as string,
    });
    expect(other.status).toBe(200);
  });

  it('/openapi.json the same; q=0 refuses a coding', async () => {
    const gz = await get('/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const doc = JSON.parse(gunzipSync(gz.bytes).toString());
    expect(doc.openapi).toBe('3.1.0');
    expect(gz.headers.get('cache-control')).toBe('no-cache');
    const noBr = await get('/openapi.json', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    expect(noBr.headers.get('content-encoding')).toBe('gzip');
    const none = await get('/openapi.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(none.text()).openapi).toBe('3.1.0');
    const cached = await get('/openapi.json', {
      'accept-encoding': 'gzip',
      'if-none-match': gz.headers.get('etag') as string,
    });
    expect(cached.status).toBe(304);
  });

  it('a large JSON answer is compressed for a client that asks; a small one and a client that does not are not', async () => {
    const big = await get('/api/v1/airports/search?query=lon&limit=50', { 'accept-encoding': 'br' });
    expect(big.status).toBe(200);
    expect(big.headers.get('content-encoding')).toBe('br');
    const body = brotliDecompressSync(big.bytes).toString();
    expect(body.length).toBeGreaterThanOrEqual(1024);
    expect(JSON.parse(body)).toBeTruthy();
    expect(Number(big.headers.get('content-length'))).toBeLessThan(body.length);
    const same = await get('/api/v1/airports/search?query=lon&limit=50');
    expect(same.headers.get('content-encoding')).toBeNull();
    expect(same.text()).toBe(body);
    const small = await get('/health', { 'accept-encoding': 'br' });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});
