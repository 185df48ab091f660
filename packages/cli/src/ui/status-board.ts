/**
 * Several spinner lines at once (one per supplier), redrawn in place on stderr. ora draws one line; a
 * search fans out to several suppliers that finish independently, so this is a small multi-line variant.
 */
import type { ChalkInstance } from 'chalk';

export type LineState = 'running' | 'done' | 'warn' | 'failed';

export interface StatusBoard {
  update(key: string, text: string, state?: LineState): void;
  /** Final redraw; the lines stay on screen. */
  stop(): void;
  /** The current state of each line (what tests and the final summary read). */
  snapshot(): Record<string, { text: string; state: LineState }>;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function createStatusBoard(
  keys: string[],
  stream: NodeJS.WritableStream | undefined,
  c: ChalkInstance,
): StatusBoard {
  const lines = new Map<string, { text: string; state: LineState }>();
  for (const key of keys) lines.set(key, { text: 'waiting', state: 'running' });
  let frame = 0;
  let drawn = 0;
  const symbol = (state: LineState) =>
    state === 'done'
      ? c.green('✔')
      : state === 'failed'
        ? c.red('✖')
        : state === 'warn'
          ? c.yellow('⚠')
          : c.cyan(FRAMES[frame % FRAMES.length] ?? '-');
  const draw = () => {
    if (!stream) return;
    let text = drawn > 0 ? `\x1b[${drawn}A` : '';
    for (const [key, line] of lines) text += `\x1b[2K${symbol(line.state)} ${key.padEnd(10)} ${line.text}\n`;
    drawn = lines.size;
    stream.write(text);
  };
  const timer = stream
    ? setInterval(() => {
        frame++;
        draw();
      }, 80)
    : undefined;
  draw();
  return {
    update(key, text, state = 'running') {
      lines.set(key, { text, state });
      draw();
    },
    stop() {
      if (timer) clearInterval(timer);
      draw();
    },
    snapshot: () => Object.fromEntries(lines),
  };
}
