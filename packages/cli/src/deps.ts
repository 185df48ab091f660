/**
 * The real world: process streams, inquirer, conf, the SDK. Only run.ts calls this. Each piece is made on
 * first use, so `travel --help` never loads conf (ajv, semver), inquirer, chalk or the SDK.
 */
import type { TravelClientOptions } from '@travel/sdk';
import { type ConfigStore, createConfStore } from './config.ts';
import type { Deps } from './context.ts';
import { createIO, type IO } from './io.ts';
import { createInquirerPrompter, type Prompter } from './prompter.ts';

let travelSdk: typeof import('@travel/sdk') | undefined;

/**
 * Loads the SDK (openapi-fetch and the client): a command's run does this before it starts (`prepare`);
 * `travel --help` and `--version` never do.
 */
export async function loadSdk(): Promise<void> {
  travelSdk ??= await import('@travel/sdk');
}

export function createRealDeps(env: NodeJS.ProcessEnv = process.env): Deps {
  const streams = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  let io: IO | undefined;
  let prompter: Prompter | undefined;
  let config: ConfigStore | undefined;
  return {
    get io() {
      io ??= createIO(streams, env);
      return io;
    },
    get prompter() {
      prompter ??= createInquirerPrompter(streams);
      return prompter;
    },
    get config() {
      config ??= createConfStore(env);
      return config;
    },
    env,
    prepare: loadSdk,
    sdk: (options) => {
      if (!travelSdk) throw new Error('internal: the SDK is used before loadSdk()');
      const { createTravelClient } = travelSdk;
      const client: TravelClientOptions = {
        baseUrl: options.baseUrl,
        ...(options.token ? { token: options.token } : {}),
        ...(options.session ? { getToken: options.session.token, fetch: options.session.fetch } : {}),
        // The SDK sends it as X-API-Key (and never refreshes anything for it).
        ...(options.apiKey ? { auth: { apiKey: options.apiKey } } : {}),
        ...(options.logger ? { logger: options.logger } : {}),
      };
      return createTravelClient(client);
    },
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
