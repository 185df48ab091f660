/**
 * The log lines' buffer (src/internal/log-destination.ts) in a process of its own writing to a pipe: a
 * line leaves on its own while the process runs, and nothing is lost when the process ends: through
 * `process.exit` right after the lines (more than the 16 KiB written out on the way), or because the
 * event loop ran out of work.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/internal/log-destination.ts', import.meta.url));

/** Runs `body` in a child node with `b`, a LineBuffer on its stdout; resolves with its stdout once it exits. */
function child(body: string, onData?: (soFar: string, kill: () => void) => void): Promise<string> {
  const script = `import { LineBuffer } from ${JSON.stringify(MODULE)};\nconst b = new LineBuffer(1);\n${body}`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  p.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    onData?.(out, () => p.kill('SIGKILL'));
  });
  return new Promise((resolve, reject) => {
    p.once('error', reject);
    p.once('close', () => resolve(out));
  });
}

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `{"n":${i}}\n`).join('');

describe('LineBuffer', () => {
  it('a line leaves while the process runs, without a flush', { timeout: 30_000 }, async () => {
    // The child writes one line and then idles forever; it is killed once the line has arrived.
    const out = await child(`b.write('{"hello":1}\\n');\nsetInterval(() => {}, 1000);`, (soFar, kill) => {
      if (soFar.includes('\n')) kill();
    });
    expect(out).toBe('{"hello":1}\n');
  });

  it('process.exit right after the lines: every line is written, in order', { timeout: 30_000 }, async () => {
    const out = await child(
      `for (let i = 0; i < 5000; i++) b.write('{"n":' + i + '}\\n');\nprocess.exit(0);`,
    );
    expect(out).toBe(numbered(5000));
  });

  it('the event loop running out of work: the last lines are written', { timeout: 30_000 }, async () => {
    const out = await child(`for (let i = 0; i < 3; i++) b.write('{"n":' + i + '}\\n');`);
    expect(out).toBe(numbered(3));
  });
});
