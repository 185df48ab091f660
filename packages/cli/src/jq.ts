/**
 * `--jq <expr>` (global, like `gh --jq`): the JSON document a command prints under --json goes through a jq
 * expression; strings come out raw, anything else as JSON (`jq -r`). The engine is jq itself, compiled to
 * WebAssembly (`jq-web`): the full language, jq's own error messages. It is loaded only when --jq is given,
 * so no other run pays for it (see the README for the measured cost).
 */
import { createRequire } from 'node:module';
import type JqWeb from 'jq-web';
import { CliError, UsageError } from './errors.ts';

/** jq's message without the wrapper's `Non-zero exit code: N` line. */
function jqMessage(error: unknown): { text: string; compile: boolean } {
  const message = error instanceof Error ? error.message : String(error);
  const compile = /Non-zero exit code: 3\b/.test(message) || /compile error/.test(message);
  const text = message
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^Non-zero exit code/.test(line))
    .join('; ');
  return { text: text || message, compile };
}

/**
 * Loads jq and compiles `expression` once (on `null`), so a malformed expression is a usage error (exit 2)
 * before any request is sent. Returns the filter: a value in, the output lines out.
 */
export async function loadJq(expression: string): Promise<(value: unknown) => string[]> {
  // Required, not imported: its CommonJS export is a promise, which an ESM namespace would await wrongly.
  const engine = await (createRequire(import.meta.url)('jq-web') as typeof JqWeb);
  try {
    engine.raw('null', expression, ['-r']);
  } catch (error) {
    const { text, compile } = jqMessage(error);
    if (compile) throw new UsageError(`--jq: ${text}`);
    // A runtime error on null (e.g. `.[0] | keys`) says nothing about the real document: try that later.
  }
  return (value) => {
    let out: string;
    try {
      out = engine.raw(JSON.stringify(value ?? null), expression, ['-r']);
    } catch (error) {
      throw new CliError(`--jq: ${jqMessage(error).text}`);
    }
    const lines = out.replace(/\n$/, '').split('\n');
    return out === '' ? [] : lines;
  };
}
