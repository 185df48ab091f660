/** The real world: process streams, inquirer, conf, the SDK. Only bin.ts calls this. */
import { createTravelClient } from '@travel/sdk';
import { createConfStore } from './config.ts';
import type { Deps } from './context.ts';
import { createIO } from './io.ts';
import { createInquirerPrompter } from './prompter.ts';

export function createRealDeps(env: NodeJS.ProcessEnv = process.env): Deps {
  const streams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  return {
    io: createIO(streams, env),
    prompter: createInquirerPrompter(streams),
    config: createConfStore(env),
    env,
    sdk: (options) =>
      createTravelClient({
        baseUrl: options.baseUrl,
        ...(options.token ? { token: options.token } : {}),
        ...(options.session ? { getToken: options.session.token, fetch: options.session.fetch } : {}),
        // The SDK sends it as X-API-Key (and never refreshes anything for it).
        ...(options.apiKey ? { auth: { apiKey: options.apiKey } } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      }),
    now: () => new Date(),
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      }),
  };
}
