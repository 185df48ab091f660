/** The live board and spinner on a recorded terminal stream: cursor hidden while drawing, lines cut to width. */
import { Writable } from 'node:stream';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSpinner, createStatusBoard, fit } from '../src/ui/status-board.ts';

// biome-ignore lint/suspicious/noControlCharactersInRegex: reading terminal escapes is the point.
const ESC = /\x1b\[[0-9;?]*[A-Za-z]/g;

function terminal(columns: number) {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number; rows: number } & Record<string, unknown>;
  stream.isTTY = true;
  // What ora calls on a terminal stream (as tty.WriteStream has them).
  stream.cursorTo = (x: number) => void writes.push(`\x1b[${x + 1}G`);
  stream.clearLine = () => void writes.push('\x1b[2K');
  stream.moveCursor = (_x: number, y: number) => void writes.push(y < 0 ? `\x1b[${-y}A` : '');
  stream.columns = columns;
  stream.rows = 24;
  return { stream, writes, text: () => writes.join('') };
}

const plain = new Chalk({ level: 0 });

describe('status board (log-update)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hides the cursor while drawing and shows it again when stopped', () => {
    // log-update hides the cursor on process.stderr, which is the board's stream in a real run.
    const t = terminal(80);
    const order: string[] = [];
    const tty = Object.getOwnPropertyDescriptor(process.stderr, 'isTTY');
    Object.defineProperty(process.stderr, 'isTTY', { value: true, configurable: true });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      order.push(`stderr:${String(chunk)}`);
      return true;
    });
    const original = t.stream.write.bind(t.stream);
    t.stream.write = ((chunk: unknown, ...rest: never[]) => {
      order.push(`board:${String(chunk)}`);
      return original(chunk as string, ...rest);
    }) as typeof t.stream.write;
    try {
      const board = createStatusBoard(['amadeus', 'duffel'], t.stream, plain);
      board.update('amadeus', '7 offers');
      board.update('duffel', 'done · 3 offers', 'done');
      board.stop();
      expect(board.snapshot().duffel).toEqual({ text: 'done · 3 offers', state: 'done' });
    } finally {
      if (tty) Object.defineProperty(process.stderr, 'isTTY', tty);
      else delete (process.stderr as { isTTY?: boolean }).isTTY;
    }
    const hide = order.indexOf('stderr:\x1b[?25l');
    const firstDraw = order.findIndex((w) => w.startsWith('board:') && w.includes('amadeus'));
    const lastDraw = order.findLastIndex((w) => w.startsWith('board:') && w.includes('duffel'));
    const show = order.lastIndexOf('stderr:\x1b[?25h');
    expect(hide).toBeGreaterThanOrEqual(0);
    expect(hide).toBeLessThan(firstDraw);
    expect(show).toBeGreaterThan(lastDraw);
  });

  it('at 22 columns every drawn line fits (no wrapping left behind by a redraw)', () => {
    const t = terminal(22);
    const board = createStatusBoard(['amadeus', 'mystifly'], t.stream, plain);
    board.update('amadeus', 'done · 7 offers from 3 airlines', 'done');
    board.update('mystifly', 'timed out · 8 offers', 'warn');
    board.stop();
    const lines = t.text().replace(ESC, '\n').split('\n').filter(Boolean);
    expect(lines.some((l) => l.startsWith('✔ amadeus'))).toBe(true);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(21);
  });

  it('draws nothing without a terminal stream, and still records each line', () => {
    const board = createStatusBoard(['amadeus'], undefined, plain);
    board.update('amadeus', '3 offers', 'done');
    board.stop();
    expect(board.snapshot()).toEqual({ amadeus: { text: '3 offers', state: 'done' } });
  });

  it('a one-line board is an ora spinner whose final state stays', () => {
    const t = terminal(40);
    const board = createStatusBoard(['booking'], t.stream, plain);
    board.update('booking', 'waiting for the supplier', 'running');
    board.update('booking', 'confirmed X7KQ2M', 'done');
    board.stop();
    const text = t.text();
    expect(text).toContain('\x1b[?25l');
    expect(text).toContain('booking confirmed X7KQ2M');
    expect(text.replace(ESC, '')).toMatch(/✔ booking confirmed X7KQ2M\n$/);
  });

  it('a spinner is silent without a terminal; fit cuts with an ellipsis', () => {
    const s = createSpinner('waiting', undefined);
    s.text('x');
    s.succeed('done');
    expect(fit('abcdefgh', 5)).toBe('abcd…');
    expect(fit('abc', 5)).toBe('abc');
  });
});
