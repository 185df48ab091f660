/** What every resource namespace is built from; assembled once by `createTravelClient`. */

import type { paths } from '@travel/contract';
import type { Client } from 'openapi-fetch';
import type { PendingPollOptions, PollDeps } from '../core/pending.ts';
import type { RequestInitParts, RequestOptions } from '../core/request.ts';
import type { Session } from '../core/session.ts';
import type { StreamDeps } from '../core/stream.ts';

export type { RequestOptions } from '../core/request.ts';

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
  /** The client's per-attempt timeout (ms), for calls that know the server may hold them longer. */
  timeoutMs: number;
  /** openapi-fetch init for one call from its request options; `own` headers (an Idempotency-Key) on top. */
  init(options: RequestOptions | undefined, own?: Record<string, string>): RequestInitParts;
}
