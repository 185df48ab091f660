import type { Exchange } from './context.ts';

/** Middleware is `(ex, next) => Promise<void>`; each factory returns a named function. */
export type Middleware = (ex: Exchange, next: () => Promise<void>) => Promise<void>;

/** Composes once, at start; calling `next()` twice is a bug and throws. */
export function compose(stack: Middleware[]): (ex: Exchange) => Promise<void> {
  return function run(ex) {
    let last = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= last) throw new Error('next() called more than once');
      last = i;
      const mw = stack[i];
      if (mw) await mw(ex, () => dispatch(i + 1));
    };
    return dispatch(0);
  };
}
