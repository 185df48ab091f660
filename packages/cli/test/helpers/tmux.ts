/** Drives the built binary in a real pseudo-terminal through tmux (send-keys / capture-pane). */
import { execFileSync, spawnSync } from 'node:child_process';
import { BIN } from './cli.ts';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface TmuxSession {
  send(...keys: string[]): void;
  type(text: string): void;
  screen(): string;
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<string>;
  kill(): void;
}

export function startTmux(args: string[], env: Record<string, string>, width = 160): TmuxSession {
  const socket = `travel-cli-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...a: string[]) =>
    execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const exports = Object.entries(env)
    .map(([k, v]) => `${k}=${quote(v)}`)
    .join(' ');
  // Keep the pane after the command ends so the exit code stays readable.
  const command = `env ${exports} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; echo "[exit $?]"; sleep 600`;
  tmux('new-session', '-d', '-s', 'main', '-x', String(width), '-y', '50', command);
  const screen = () => tmux('capture-pane', '-p', '-t', 'main', '-S', '-200');
  return {
    send: (...keys) => void tmux('send-keys', '-t', 'main', ...keys),
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    screen,
    async waitFor(pattern, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen();
        if (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text)) return text;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; screen:\n${text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
