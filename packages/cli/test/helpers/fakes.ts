/** Fakes for run-function tests: an IO that records lines, a scripted prompter, a partial SDK. */
import type { TravelClient } from '@travel/sdk';
import { Chalk } from 'chalk';
import { createMemoryStore, type Profile } from '../../src/config.ts';
import { type Ctx, createContext, type Deps, type GlobalOptions } from '../../src/context.ts';
import type { IO } from '../../src/io.ts';
import type { Prompter } from '../../src/prompter.ts';
import type { LineState } from '../../src/ui/status-board.ts';

export interface FakeIO extends IO {
  stdout: string[];
  stderr: string[];
  boards: Record<string, { text: string; state: LineState }>[];
  stdin: string;
}

export function fakeIO(options: { interactive?: boolean; stdin?: string; columns?: number } = {}): FakeIO {
  const io: FakeIO = {
    stdout: [],
    stderr: [],
    boards: [],
    stdin: options.stdin ?? '',
    out: (line) => void io.stdout.push(line),
    err: (line) => void io.stderr.push(line),
    json: (value) => void io.stdout.push(JSON.stringify(value)),
    interactive: options.interactive ?? false,
    stdinIsTTY: options.interactive ?? false,
    color: false,
    columns: options.columns ?? 100,
    c: new Chalk({ level: 0 }),
    statusBoard(keys) {
      const lines: Record<string, { text: string; state: LineState }> = {};
      for (const key of keys) lines[key] = { text: 'waiting', state: 'running' };
      io.boards.push(lines);
      return {
        update: (key, text, state = 'running') => {
          lines[key] = { text, state };
        },
        stop: () => undefined,
        snapshot: () => lines,
      };
    },
    spinner(text) {
      io.stderr.push(text);
      const end = (t?: string) => void (t !== undefined && io.stderr.push(t));
      return { text: () => undefined, succeed: end, fail: end, warn: end, stop: () => undefined };
    },
    readStdin: async () => io.stdin,
  };
  return io;
}

/** Answers prompts in order; a test fails loudly when a prompt it did not expect appears. */
export function scriptedPrompter(answers: unknown[]): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = async (message: string) => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return answers.shift();
  };
  return {
    asked,
    input: (m) => next(m) as Promise<string>,
    password: (m) => next(m) as Promise<string>,
    select: (m) => next(m) as Promise<never>,
    checkbox: (m) => next(m) as Promise<never[]>,
    confirm: (m) => next(m) as Promise<boolean>,
  };
}

export type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends (...args: never[]) => unknown ? T[K] : DeepPartial<T[K]>;
};

export interface FakeWorld {
  deps: Deps;
  io: FakeIO;
  ctx: Ctx;
}

export function fakeWorld(options: {
  sdk?: DeepPartial<TravelClient>;
  interactive?: boolean;
  answers?: unknown[];
  profiles?: Record<string, Profile>;
  env?: NodeJS.ProcessEnv;
  globals?: GlobalOptions;
  stdin?: string;
}): FakeWorld {
  const io = fakeIO({ interactive: options.interactive ?? false, stdin: options.stdin ?? '' });
  let t = Date.parse('2026-06-01T10:00:00Z');
  const deps: Deps = {
    io,
    prompter: scriptedPrompter(options.answers ?? []),
    config: createMemoryStore(
      options.profiles ?? { default: { token: 'tok', company_code: 'ACME', user_code: 'agent01' } },
    ),
    env: options.env ?? {},
    sdk: () => (options.sdk ?? {}) as TravelClient,
    now: () => new Date(t),
    // Time moves only when something waits: polling tests never sleep for real.
    sleep: async (ms) => {
      t += ms;
    },
  };
  return { deps, io, ctx: createContext(deps, options.globals ?? {}) };
}

/** An async generator of the given events (a fake SSE stream). */
export async function* events<T>(list: T[]): AsyncGenerator<T, void, undefined> {
  for (const item of list) yield item;
}
