/**
 * The access line's own writer (src/internal/access-line.ts): the JSON pino writes for the same fields,
 * one valid JSON line whatever the values hold (quotes, backslashes, control characters, U+2028, lone
 * surrogates, non-ASCII), and the same line when a real request with an odd User-Agent goes through the
 * node adapter.
 */
import { request } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type AccessFields, accessWriter, jsonString, tenths } from '../../src/internal/access-line.ts';
import { createLogger } from '../../src/internal/logger.ts';
import { serve } from '../../src/kernel/node-adapter.ts';
import { createTestApp } from '../helpers/app.ts';

/** A deterministic generator (mulberry32): the same strings every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD = [
  '',
  'plain',
  '"',
  '\\',
  'a"b\\c',
  '\u0000',
  '\u0001\u001f',
  '\t\n\r\b\f',
  '\u007f',
  '\u0080\u00ff',
  'ünï "agent"',
  '\u2028\u2029',
  '😀',
  '\ud800',
  '\udfff',
  'x\udc00\ud800y',
  '\ud83d',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36',
  '</script>',
];

function sink(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    // The lines as the writers made them (a Buffer would already have replaced a lone surrogate).
    decodeStrings: false,
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, lines };
}

const fields = (over: Partial<AccessFields> = {}): AccessFields => ({
  req_id: 'r-1',
  method: 'POST',
  path: '/api/v1/x',
  operation: 'createThing',
  status: 201,
  ms: 1.46,
  user_id: 'u-7',
  company_id: 3,
  api_key_id: null,
  ip: '::1',
  user_agent: 'curl/8',
  trace_id: undefined,
  ...over,
});

/** The line with its time field set to 0 (the two writers read the clock a moment apart). */
const untimed = (line: string) => line.replace(/,"time":\d+,/, ',"time":0,');

describe('jsonString', () => {
  it('is JSON.stringify for odd strings', () => {
    for (const s of ODD) expect(jsonString(s), JSON.stringify(s)).toBe(JSON.stringify(s));
  });

  it('is JSON.stringify for random strings over every kind of code unit', () => {
    const next = random(31);
    // Code units from each range JSON treats apart: C0 controls, ASCII, quote and backslash, Latin-1,
    // BMP, the line separators, high and low surrogates (paired or not).
    const pools = [
      [0x00, 0x1f],
      [0x20, 0x7e],
      [0x22, 0x22],
      [0x5c, 0x5c],
      [0x7f, 0xff],
      [0x100, 0xd7ff],
      [0x2028, 0x2029],
      [0xd800, 0xdbff],
      [0xdc00, 0xdfff],
      [0xe000, 0xffff],
    ] as const;
    for (let i = 0; i < 5000; i++) {
      const units: number[] = [];
      const n = Math.floor(next() * 12);
      for (let j = 0; j < n; j++) {
        // Mostly plain ASCII, as real values are, with an odd unit now and then.
        const pool = next() < 0.7 ? pools[1] : (pools[Math.floor(next() * pools.length)] ?? pools[1]);
        units.push(pool[0] + Math.floor(next() * (pool[1] - pool[0] + 1)));
      }
      const s = String.fromCharCode(...units);
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }
  });
});

describe('tenths', () => {
  it('is the JSON of the duration rounded to a tenth', () => {
    const next = random(7);
    const values = [0, -0, 0.04, 0.05, 0.949, 0.95, 1, 9.95, 10, 99.99, 123.45, 1e6 + 0.05, 2 ** 40 + 0.3];
    for (let i = 0; i < 20_000; i++) values.push(next() * 10 ** Math.floor(next() * 7));
    for (const ms of values) expect(tenths(ms), String(ms)).toBe(JSON.stringify(Math.round(ms * 10) / 10));
  });

  it('takes the general path for negative, huge and non-finite values', () => {
    for (const ms of [-0.06, -1, -123.44, 1e15, 1e21, 1e300, Number.NaN, Number.POSITIVE_INFINITY])
      expect(tenths(ms), String(ms)).toBe(JSON.stringify(Math.round(ms * 10) / 10));
  });
});

describe('accessWriter', () => {
  it('writes the line pino writes for the same fields, each field in turn', () => {
    const { stream, lines } = sink();
    const logger = createLogger('info', stream);
    const write = accessWriter(logger);
    expect(write).toBeDefined();
    const cases: AccessFields[] = [
      fields(),
      fields({ trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', api_key_id: '12', ms: 0.04 }),
      fields({ user_id: null, company_id: null, user_agent: null, status: 404, operation: 'unmatched' }),
      ...ODD.flatMap((s) => [
        fields({ user_agent: s }),
        fields({ path: `/api/v1/${s}`, user_id: s, api_key_id: s, ip: s, req_id: s, trace_id: s }),
      ]),
    ];
    for (const f of cases) {
      lines.length = 0;
      write?.(f);
      logger.info({ ...f, ms: Math.round(f.ms * 10) / 10 }, 'request');
      const [fast, slow] = lines;
      // pino writes a lone surrogate as it is (its UTF-8 is then U+FFFD); the writer escapes it, as
      // JSON.stringify does, so the value survives: the same JSON, apart from that spelling.
      if (/[\ud800-\udfff]/.test(untimed(slow ?? '')))
        expect(JSON.parse(untimed(fast ?? ''))).toEqual(JSON.parse(untimed(slow ?? '')));
      else expect(untimed(fast ?? '')).toBe(untimed(slow ?? ''));
      // One line, valid JSON, the values as they were.
      expect(fast?.indexOf('\n')).toBe((fast?.length ?? 0) - 1);
      const parsed = JSON.parse(fast ?? '') as Record<string, unknown>;
      expect(parsed.user_agent).toBe(f.user_agent);
      expect(parsed.msg).toBe('request');
    }
  });

  it('is only for a logger createLogger made', () => {
    const { stream } = sink();
    expect(accessWriter(pino({ level: 'info' }, stream))).toBeUndefined();
    expect(accessWriter(createLogger('info', stream).child({ a: 1 }))).toBeUndefined();
  });

  it('a request with an odd User-Agent through the node adapter: one JSON line, the agent as sent', async () => {
    const { stream, lines } = sink();
    const t = await createTestApp({ logger: createLogger('info', stream) });
    const srv = await serve(t.app.kernel, { port: 0, host: '127.0.0.1' });
    try {
      const port = (srv.server.address() as { port: number }).port;
      // What a header value may hold on the wire: tabs, quotes, backslashes, Latin-1 bytes.
      const agent = 'odd\t"agent" \\ ü\u00ff </x>';
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { port, host: '127.0.0.1', path: '/health/', headers: { 'user-agent': agent } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBeGreaterThan(0);
      const mine = lines
        .flatMap((l) => l.split('\n'))
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ level: 30, method: 'GET', path: '/health/', user_agent: agent });
    } finally {
      await srv.close(1000);
      await t.close();
    }
  });
});
