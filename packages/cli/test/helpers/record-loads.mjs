/**
 * Preloaded with `--import` by test/start-up.test.ts: appends the URL of every module the process loads
 * (ES modules and require()d CommonJS alike, through node's in-thread module hooks) to the file named by
 * `RECORD_LOADS_FILE`, one per line, as it is loaded (written synchronously, so an exit loses nothing).
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const out = process.env.RECORD_LOADS_FILE;
if (out)
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(out, `${url}\n`);
      return nextLoad(url, context);
    },
  });
