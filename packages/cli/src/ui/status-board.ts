/**
 * Live progress on stderr. One line (a wait: booking, polling) is an `ora` spinner; several lines (one per
 * supplier of a search, finishing independently) are redrawn by `log-update`, which counts the rows the
 * text really takes on screen and hides the cursor while drawing. Each line is cut to the terminal's
 * width, so a narrow pane never wraps (and never leaves half-erased lines behind). Without a terminal
 * stream nothing is drawn; the board still records each line's state.
 */
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import type { createLogUpdate as CreateLogUpdate } from 'log-update';
import type OraFactory from 'ora';

export type LineState = 'running' | 'done' | 'warn' | 'failed';

export interface StatusBoard {
  update(key: string, text: string, state?: LineState): void;
  /** Final redraw; the lines stay on screen. */
  stop(): void;
  /** The current state of each line (what tests and the final summary read). */
  snapshot(): Record<string, { text: string; state: LineState }>;
}

/** One spinner line for a wait (ora): `succeed` / `fail` / `warn` leave a final line on screen. */
export interface Spinner {
  text(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  warn(text?: string): void;
  /** Removes the line (the result follows on stdout). */
  stop(): void;
}

// ora and log-update are ES modules loaded on first live use only (Node ≥ 22.12 requires them synchronously).
const load = createRequire(import.meta.url);
const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Cuts plain text to `width` columns (an ellipsis marks the cut). */
export function fit(text: string, width: number): string {
  const chars = [...text];
  if (width <= 0) return '';
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** The terminal's width, one column spare: writing into the last column wraps on some terminals. */
const widthOf = (stream: NodeJS.WritableStream) =>
  Math.max(10, ((stream as NodeJS.WriteStream).columns || 80) - 1);

export function createSpinner(text: string, stream: NodeJS.WritableStream | undefined): Spinner {
  if (!stream) {
    return {
      text: () => undefined,
      succeed: () => undefined,
      fail: () => undefined,
      warn: () => undefined,
      stop: () => undefined,
    };
  }
  const ora = (load('ora') as { default: typeof OraFactory }).default;
  const cut = (t: string) => fit(t, widthOf(stream) - 2);
  const spinner = ora({ text: cut(text), stream, discardStdin: false, isEnabled: true }).start();
  return {
    text: (t) => {
      spinner.text = cut(t);
    },
    succeed: (t) => void spinner.succeed(t === undefined ? undefined : cut(t)),
    fail: (t) => void spinner.fail(t === undefined ? undefined : cut(t)),
    warn: (t) => void spinner.warn(t === undefined ? undefined : cut(t)),
    stop: () => void spinner.stop(),
  };
}

export function createStatusBoard(
  keys: string[],
  stream: NodeJS.WritableStream | undefined,
  c: ChalkInstance,
): StatusBoard {
  const lines = new Map<string, { text: string; state: LineState }>();
  for (const key of keys) lines.set(key, { text: 'waiting', state: 'running' });
  const snapshot = () => Object.fromEntries(lines);
  if (!stream) {
    return {
      update: (key, text, state = 'running') => void lines.set(key, { text, state }),
      stop: () => undefined,
      snapshot,
    };
  }
  if (keys.length === 1) return singleLine(keys[0] as string, lines, stream);
  const { createLogUpdate } = load('log-update') as { createLogUpdate: typeof CreateLogUpdate };
  const render = createLogUpdate(stream as NodeJS.WriteStream, { showCursor: false });
  const pad = Math.max(...keys.map((k) => k.length));
  let frame = 0;
  const symbol = (state: LineState) =>
    state === 'done'
      ? c.green('✔')
      : state === 'failed'
        ? c.red('✖')
        : state === 'warn'
          ? c.yellow('⚠')
          : c.cyan(FRAMES[frame % FRAMES.length] ?? '-');
  const draw = () => {
    const width = widthOf(stream);
    const rows = [...lines].map(
      ([key, line]) => `${symbol(line.state)} ${fit(`${key.padEnd(pad)} ${line.text}`, width - 2)}`,
    );
    render(rows.join('\n'));
  };
  const timer = setInterval(() => {
    frame++;
    draw();
  }, 80);
  draw();
  let stopped = false;
  return {
    update(key, text, state = 'running') {
      lines.set(key, { text, state });
      if (!stopped) draw();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      draw();
      render.done();
    },
    snapshot,
  };
}

/** A board of one line is a wait: an ora spinner whose final state stays on screen. */
function singleLine(
  key: string,
  lines: Map<string, { text: string; state: LineState }>,
  stream: NodeJS.WritableStream,
): StatusBoard {
  const spinner = createSpinner(`${key} waiting`, stream);
  let stopped = false;
  return {
    update(k, text, state = 'running') {
      lines.set(k, { text, state });
      if (!stopped) spinner.text(`${k} ${text}`);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      const line = lines.get(key) ?? { text: '', state: 'done' as const };
      const final = `${key} ${line.text}`;
      if (line.state === 'failed') spinner.fail(final);
      else if (line.state === 'warn') spinner.warn(final);
      else spinner.succeed(final);
    },
    snapshot: () => Object.fromEntries(lines),
  };
}
