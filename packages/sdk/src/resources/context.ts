/** What every resource namespace is built from; assembled once by `createTravelClient`. */

import type { paths } from '@travel/contract';
import type { Client } from 'openapi-fetch';
import type { PendingPollOptions, PollDeps } from '../core/pending.ts';
import type { Session } from '../core/session.ts';
import type { StreamDeps } from '../core/stream.ts';

/** The typed openapi-fetch client over the contract. */
export type RawClient = Client<paths>;

/** Shared by all namespaces of one client. */
export interface ClientContext {
  raw: RawClient;
  /** Without a trailing slash. */
  baseUrl: string;
  stream: Omit<StreamDeps, 'terminalEvent'>;
  poll: PollDeps;
  pending: PendingPollOptions;
  /** The client's login session: `auth.login()` / `auth.refresh()` / `auth.logout()` update it. */
  session: Session;
}

/** Options every SDK method accepts. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** `{ signal }` when a signal was given: openapi-fetch passes unknown keys on to fetch. */
export function signalOf(options: RequestOptions | undefined): { signal?: AbortSignal } {
  return options?.signal ? { signal: options.signal } : {};
}
