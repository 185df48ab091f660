import type { Exchange } from '../context.ts';
import { ValidationError } from '../errors.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the JSON body read by body-limit into `ctx.body`; malformed JSON (or invalid UTF-8) is a 422 at
 * `loc: ["body"]`. Empty means none. Synchronous: the kernel runs it in line as a step.
 */
export function parseJsonBody(ex: Exchange): void {
  if (ex.rawBody && ex.rawBody.byteLength > 0) {
    let text: string;
    try {
      text = decoder.decode(ex.rawBody);
    } catch {
      throw new ValidationError([{ loc: ['body'], msg: 'Body is not valid UTF-8', type: 'json_invalid' }]);
    }
    if (text.trim() !== '') {
      try {
        ex.ctx.body = JSON.parse(text);
      } catch (err) {
        throw new ValidationError([
          { loc: ['body'], msg: `JSON decode error: ${(err as Error).message}`, type: 'json_invalid' },
        ]);
      }
    }
  }
}
