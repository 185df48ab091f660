/**
 * The terminal, as commands see it. stdout carries data only (tables, JSON); spinners, progress and hints
 * go to stderr, so `travel ... --json | jq` never sees a spinner frame.
 */
import { createRequire } from 'node:module';
import type { ChalkInstance } from 'chalk';
import { createSpinner, createStatusBoard, type Spinner, type StatusBoard } from './ui/status-board.ts';
import { DEFAULT_TABLE_WIDTH } from './ui/width.ts';

export interface IO {
  /** One line of data to stdout. */
  out(line: string): void;
  /** One line of hints or progress to stderr. */
  err(line: string): void;
  /** One JSON document to stdout. */
  json(value: unknown): void;
  /** stdin and stdout are both terminals: prompts, pickers and spinners are allowed. */
  readonly interactive: boolean;
  /** stdin is a terminal (then a secret must come from a hidden prompt, never from echoed stdin). */
  readonly stdinIsTTY: boolean;
  readonly color: boolean;
  /**
   * How wide tables may be: the terminal's width when stdout is one, else COLUMNS when set, else 100
   * (a pipe or a file has no width; 100 reads well in a log and in an e-mail).
   */
  readonly columns: number;
  /** Styles; all no-ops when colour is off. */
  readonly c: ChalkInstance;
  /** Live status lines on stderr (one per key); a silent board without a terminal. */
  statusBoard(keys: string[]): StatusBoard;
  /** One spinner line on stderr for a wait (ora); silent without a terminal. */
  spinner(text: string): Spinner;
  readStdin(): Promise<string>;
}

export interface Streams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** Colour only for a terminal that wants it: NO_COLOR (any value), TERM=dumb and pipes turn it off. */
export function colorEnabled(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stdoutIsTTY;
}

/** Interactive only when a person can answer: both ends are terminals, and TERM is not dumb. */
export function isInteractive(env: NodeJS.ProcessEnv, stdinIsTTY: boolean, stdoutIsTTY: boolean): boolean {
  if (env.CI && env.CI !== 'false' && env.TRAVEL_FORCE_TTY !== '1') return false;
  return stdinIsTTY && stdoutIsTTY;
}

/** See `IO.columns`. */
export function tableWidth(env: NodeJS.ProcessEnv, stdout: { isTTY?: boolean; columns?: number }): number {
  if (stdout.isTTY && stdout.columns && stdout.columns > 0) return stdout.columns;
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return DEFAULT_TABLE_WIDTH;
}

export function createIO(streams: Streams, env: NodeJS.ProcessEnv): IO {
  const color = colorEnabled(env, Boolean(streams.stdout.isTTY));
  const interactive = isInteractive(env, Boolean(streams.stdin.isTTY), Boolean(streams.stdout.isTTY));
  // chalk is loaded on first use (help and --version never style anything).
  let chalk: ChalkInstance | undefined;
  const styles = () => {
    const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
    chalk ??= new Chalk({ level: color ? 1 : 0 });
    return chalk;
  };
  // Spinners redraw with cursor movement: only on a terminal stderr in an interactive session.
  const live = interactive && Boolean(streams.stderr.isTTY) && env.TERM !== 'dumb';
  return {
    out: (line) => void streams.stdout.write(`${line}\n`),
    err: (line) => void streams.stderr.write(`${line}\n`),
    json: (value) => void streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    interactive,
    stdinIsTTY: Boolean(streams.stdin.isTTY),
    color,
    get columns() {
      return tableWidth(env, streams.stdout);
    },
    get c() {
      return styles();
    },
    statusBoard: (keys) => createStatusBoard(keys, live ? streams.stderr : undefined, styles()),
    spinner: (text) => createSpinner(text, live ? streams.stderr : undefined),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of streams.stdin) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
