import type { Exchange } from './context.ts';

/** Middleware is `(ex, next) => Promise<void>`; each factory returns a named function. */
export type Middleware = (ex: Exchange, next: () => Promise<void>) => Promise<void>;

/** A step that only acts before the handler: synchronous (undefined) or a promise. */
export type Step = (ex: Exchange) => void | Promise<void>;

const done = Promise.resolve();

/**
 * Composes once, at start; calling `next()` twice is a bug and throws. No async wrapper per step: each
 * middleware's own promise is passed up as is (a synchronous throw becomes a rejection).
 */
export function compose(stack: Middleware[]): (ex: Exchange) => Promise<void> {
  const steps = stack.slice();
  return function run(ex) {
    let last = -1;
    const dispatch = (i: number): Promise<void> => {
      if (i <= last) return Promise.reject(new Error('next() called more than once'));
      last = i;
      const mw = steps[i];
      if (!mw) return done;
      try {
        return mw(ex, () => dispatch(i + 1));
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return dispatch(0);
  };
}
