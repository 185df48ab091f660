/**
 * Ctrl-C during a stream (the built binary): SIGINT while an event stream is open prints one line and
 * exits 130. The server here is a local one that opens an SSE stream, sends one event and stays open.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshConfigDir } from './helpers/cli.ts';

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('event: offer\ndata: {"n":1}\n\n');
    // Left open: the stream never ends by itself.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('Ctrl-C during a stream', () => {
  it('prints one line and exits 130', async () => {
    const dir = freshConfigDir();
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/api/v1/flight/getFare/stream/x'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        TRAVEL_CONFIG_DIR: dir,
        TRAVEL_BASE_URL: base,
        TRAVEL_TOKEN: 't',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Wait for the first event on stdout: the stream is open.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no event within 20 s; stderr: ${stderr}`)), 20_000);
      child.stdout.on('data', (c) => {
        stdout += c;
        if (stdout.includes('data:')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('cancelled (Ctrl-C)');
  });
});
