/**
 * The kernel's contract with every domain. A domain exports `xxxRoutes(deps): Routes`, a map from the
 * `operationId` in `openapi.json` to a handler. The kernel routes, validates (path, query with coercion
 * and defaults, headers, body), authenticates and enforces `x-roles` before a handler runs, so a handler
 * sees only valid input and a known caller.
 *
 * `Routes` is typed by the contract (`@travel/contract`'s generated `operations`): a key that is not an
 * operationId does not compile, and each handler's `ctx.body`, `ctx.query` and `ctx.params` are the
 * operation's request body (`application/json`), query and path parameters. So a handler never casts its
 * input, and a contract change that a handler does not follow is a compile error.
 */

import type { components, operations } from '@travel/contract';
import type { Logger } from '../internal/logger.ts';
import type { Role } from '../internal/roles.ts';
import type { Db } from '../storage/schema.ts';
import type { UncheckedResponses } from './unchecked-responses.ts';

export type { Logger, Role };

export interface AuthContext {
  userId: string;
  email: string;
  role: Role;
  /** null for platform users (super_admin) without a company. */
  companyId: number | null;
  /** The caller's company code (null without a company); filled by the kernel from the database. */
  companyCode?: string | null;
  /** Set when an admin acts through an impersonation token. */
  impersonatorId?: string;
  /** The access token's own id (`jti`) and expiry, when the caller sent one (ending an impersonation). */
  token?: { id: string; expiresAt: Date };
  /** Set when the caller authenticated with an API key (issue 16): its id, written into audit rows. The
   * key acts as its creator (`userId`) with the key's role. */
  apiKeyId?: string;
}

export interface RequestContext {
  requestId: string;
  operationId: string;
  method: string;
  path: string;
  /** Path parameters, coerced to the contract's types. */
  params: Record<string, unknown>;
  /** Query parameters, coerced, with contract defaults applied. */
  query: Record<string, unknown>;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** Parsed and validated JSON body (undefined when none). */
  body: unknown;
  /** The caller; null only on operations whose security is empty (guard `none`). */
  auth: AuthContext | null;
  /** The client's address (for rate limits and audit). */
  ip: string;
  /** Aborted when the client goes away or the server shuts down. */
  signal: AbortSignal;
  log: Logger;
  /**
   * The request's Idempotency-Key as the idempotency middleware took it (contracts §3); undefined when
   * the request carries none (or its operation takes none).
   */
  idempotency?: IdempotencyContext | undefined;
  /**
   * Runs `fn` in one database transaction and returns its result. When the request carries an
   * `Idempotency-Key`, the result is recorded as that key's response inside the same transaction, so the
   * effect and its record commit (or roll back) together. Inside `fn` use only `trx`.
   */
  transaction<T extends HandlerResult>(fn: (trx: Db) => Promise<T>): Promise<T>;
}

/** What a handler knows of the Idempotency-Key its request holds (set by kernel/middleware/idempotency.ts). */
export interface IdempotencyContext {
  /** The key as sent. */
  readonly key: string;
  /** Caller + operation + key, hashed: the key's row in `idempotency_keys`. */
  readonly scope: string;
  /** The hash of what the request asks for (params, query, body). */
  readonly hash: string;
  /**
   * A name for this request's effect that every retry of it (same caller, operation, key and request)
   * derives again: the reference a handler writes ahead and hands to the supplier, so a retry after a
   * crash finds the effect instead of repeating it (hex).
   */
  readonly effect: string;
  /**
   * For a handler that stores its answer itself, in the statement that makes its effect (so both commit
   * together without a transaction around them): the key's scope, and `stored()` to call once that
   * statement committed, so the middleware does not store it again. Undefined while the request holds no
   * claim on the key, or once its answer is stored. The stored answer must be exactly what the handler
   * returns.
   */
  ownAnswer(): { scope: string; stored(): void } | undefined;
}

/** One Server-Sent Event. `data` is JSON-encoded by the kernel unless it is already a string. */
export interface SseMessage {
  id?: string;
  event?: string;
  data: unknown;
  /** Reconnection delay hint in ms (`retry:` field). */
  retry?: number;
}

/** A JSON answer; `Body` is the contract's type where the handler is checked (`ResultOf`). */
export interface JsonResult<Body = unknown> {
  status: number;
  body?: Body;
  headers?: Record<string, string>;
}

/** An error answer a handler returns instead of throwing (`errorResult`): the contract's error bodies. */
export type ErrorResult = JsonResult<
  components['schemas']['ErrorResponse'] | components['schemas']['HTTPValidationError']
>;

export interface SseResult {
  status: 200;
  headers?: Record<string, string>;
  /** The kernel writes each message as it is yielded and ends the response when the iterable ends. */
  sse: AsyncIterable<SseMessage>;
}

export interface RawResult {
  status: number;
  headers: Record<string, string>;
  /** Non-JSON body (HTML docs page, Prometheus text, the contract itself). */
  raw: string | Uint8Array;
}

export type HandlerResult = JsonResult | SseResult | RawResult;

/** Every operationId of the contract. */
export type OperationId = keyof operations;

/** `Record<string, never>` where the contract declares nothing (`never` or absent). */
type Declared<T> = [Exclude<T, undefined>] extends [never] ? Record<string, never> : Exclude<T, undefined>;

type RequestBodyOf<Op extends OperationId> = operations[Op] extends { requestBody: { content: infer C } }
  ? C extends { 'application/json': infer B }
    ? B
    : undefined
  : operations[Op] extends { requestBody?: { content: infer C } }
    ? C extends { 'application/json': infer B }
      ? B | undefined
      : undefined
    : undefined;

// Each distributes over a union of operations (a helper shared by several handlers sees any of their inputs).
/** The operation's JSON request body as validated by the kernel (`undefined` when it has none or it is optional and absent). */
export type BodyOf<Op extends OperationId> = Op extends OperationId ? RequestBodyOf<Op> : never;
/** The operation's query parameters, coerced (contract defaults are applied, but the type keeps them optional). */
export type QueryOf<Op extends OperationId> = Op extends OperationId
  ? Declared<operations[Op]['parameters']['query']>
  : never;
/** The operation's path parameters, coerced to the contract's types. */
export type ParamsOf<Op extends OperationId> = Op extends OperationId
  ? Declared<operations[Op]['parameters']['path']>
  : never;

/** What the handler of `Op` sees: the request context with the operation's typed body, query and params. */
export interface OperationContext<Op extends OperationId>
  extends Omit<RequestContext, 'body' | 'query' | 'params'> {
  body: BodyOf<Op>;
  query: QueryOf<Op>;
  params: ParamsOf<Op>;
}

type Responses<Op extends OperationId> = operations[Op]['responses'];
type JsonContentOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** Every JSON body the contract declares for the operation (its 2xx bodies and its error bodies). */
export type ResponseBodyOf<Op extends OperationId> = Op extends OperationId
  ? JsonContentOf<Responses<Op>[keyof Responses<Op>]>
  : never;

/**
 * What the handler of `Op` may answer: a JSON body of a type the contract declares for it, an error body,
 * an event stream or a raw body. Operations in `UncheckedResponses` still answer any `HandlerResult`.
 */
export type ResultOf<Op extends OperationId> = JsonResult<BodyFor<Op>> | ErrorResult | SseResult | RawResult;
/** The body type a handler of `Op` is held to: the contract's, or `unknown` while `Op` is unchecked. */
export type BodyFor<Op extends OperationId> = Op extends UncheckedResponses ? unknown : ResponseBodyOf<Op>;

/**
 * The handler of one operation. A handler whose answer needs no waiting may return it as it is (no
 * promise): the kernel then answers without a turn of the microtask queue.
 */
export type Handler<Op extends OperationId> = (
  ctx: OperationContext<Op>,
) => ResultOf<Op> | Promise<ResultOf<Op>>;

/** operationId -> handler, checked against the contract (an unknown key is a compile error). */
export type Routes = { [Op in OperationId]?: Handler<Op> };

/**
 * The kernel's untyped view of a handler: it receives the validated `RequestContext`. Used by the kernel,
 * by wrappers that apply to many operations (metrics guard, API-key audit) and by tests with a fixture
 * contract whose operations are not in `openapi.json`.
 */
export type UncheckedHandler = (ctx: RequestContext) => HandlerResult | Promise<HandlerResult>;
/** operationId -> unchecked handler (see `handlerTable`). */
export type HandlerTable = Record<string, UncheckedHandler>;

/**
 * The checked `Routes` as the kernel's table. The one place the typed view is widened: the kernel only
 * calls a handler with a context that the validate middleware checked against that operation's schemas,
 * which are the ones the types were generated from.
 */
export function handlerTable(routes: Routes): HandlerTable {
  const table: HandlerTable = {};
  for (const [id, handler] of Object.entries(routes)) {
    if (handler) table[id] = handler as UncheckedHandler;
  }
  return table;
}
