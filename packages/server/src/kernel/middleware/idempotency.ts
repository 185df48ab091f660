import { createHash } from 'node:crypto';
import type { IdempotencyStore, StoredResponse } from '../../idempotency/idempotency-store.ts';
import { deepFreeze } from '../../internal/deep-freeze.ts';
import type { Middleware, Step } from '../compose.ts';
import type { Exchange, IdempotencyClaim } from '../context.ts';
import type { Operation } from '../contract.ts';
import { conflict, HttpError, ValidationError } from '../errors.ts';
import { constantResult } from '../reply.ts';
import type { HandlerResult, IdempotencyContext, JsonResult, RequestContext } from '../types.ts';

import { renderError } from './error-handler.ts';

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The key's scope: caller + operation + key, hashed (the primary key of `idempotency_keys`). */
export function idempotencyScope(caller: string, operationId: string, key: string): string {
  return createHash('sha256').update(`${caller}\u0000${operationId}\u0000${key}`).digest('hex');
}

const callerOf = (ctx: Pick<RequestContext, 'auth' | 'ip'>) =>
  ctx.auth ? `user:${ctx.auth.userId}` : `ip:${ctx.ip}`;

/** The hash of what the request asks for (params, query, body), as the middleware compares it. */
export const requestHash = (ctx: Pick<RequestContext, 'params' | 'query' | 'body'>) =>
  createHash('sha256')
    .update(canonical({ params: ctx.params, query: ctx.query, body: ctx.body }))
    .digest('hex');

/**
 * The key a request holds, as its handler sees it (`ctx.idempotency`): the effect's name is derived on
 * first read, and `ownAnswer` reads the claim the middleware holds on the exchange (none before the claim).
 */
class KeyInUse implements IdempotencyContext {
  readonly key: string;
  readonly scope: string;
  readonly hash: string;
  readonly #claim: () => IdempotencyClaim | undefined;
  #effect: string | undefined;

  constructor(key: string, scope: string, hash: string, claim: () => IdempotencyClaim | undefined) {
    this.key = key;
    this.scope = scope;
    this.hash = hash;
    this.#claim = claim;
  }

  get effect(): string {
    this.#effect ??= createHash('sha256').update(`effect\u0000${this.scope}\u0000${this.hash}`).digest('hex');
    return this.#effect;
  }

  ownAnswer(): { scope: string; stored(): void } | undefined {
    const claim = this.#claim();
    if (!claim || claim.stored) return undefined;
    return {
      scope: claim.scope,
      stored: () => {
        claim.stored = true;
      },
    };
  }
}

/**
 * The idempotency context of a request whose key is `key` (for a caller that builds a request context
 * itself, e.g. a test standing in for a request that died): no claim, so no `ownAnswer`.
 */
export function idempotencyContext(
  ctx: Pick<RequestContext, 'auth' | 'ip' | 'operationId' | 'params' | 'query' | 'body'>,
  key: string,
): IdempotencyContext {
  const scope = idempotencyScope(callerOf(ctx), ctx.operationId, key);
  return new KeyInUse(key, scope, requestHash(ctx), () => undefined);
}

/** An outcome that is a real answer and is stored; anything else (an internal failure) releases the key. */
const storable = (status: number) => status < 500 || status === 502;

/** The stored form of a handler's result, or undefined when it must not be stored (streams, failures). */
export function storedForm(r: HandlerResult): StoredResponse | undefined {
  if ('sse' in r || 'raw' in r || !storable(r.status)) return undefined;
  return { status: r.status, body: r.body, headers: r.headers ?? {} };
}

/**
 * The raw inputs of a request that was answered with a stored answer (a replay), and what validation
 * made of them: the same operation, key, path, query string, declared headers and body bytes always
 * parse and validate to the same values, hence the same request hash.
 */
interface RawRequest {
  target: string;
  headers: (string | null)[];
  raw: Uint8Array;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  hash: string;
}

/** How many (operation, key) pairs `RawReplays` remembers, and how many requests for each. */
const RAW_KEYS_KEPT = 2000;
const RAW_PER_KEY = 4;

const headerNamesOf = (op: Operation) =>
  op.parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;

/** The answer of a replay, as the middleware sets it: the stored answer, marked `Idempotent-Replayed`. */
const replayed = (r: StoredResponse): HandlerResult => ({
  status: r.status,
  body: r.body,
  headers: { ...r.headers, 'idempotent-replayed': 'true' },
});

/**
 * The replay of a stored answer without parsing, validating or hashing a request whose raw inputs are
 * those of an earlier replay of the same key (a client retrying sends the same bytes). Wired by the
 * kernel around its JSON body and validation steps for operations with idempotency:
 * - `parse`: when the operation, Idempotency-Key, path, query, declared headers and body bytes are those
 *   of a remembered request, the body is not parsed yet (those bytes parsed before: no 422 can come of
 *   them); otherwise it is parsed as always.
 * - `validate` (after authentication and roles): such a request whose caller's key still holds a final
 *   answer in memory for that request's hash (`IdempotencyStore.knownAnswer`) takes the remembered
 *   values (validation made them; frozen, a handler never sees them) and that answer; any other is parsed
 *   now and validated as always. The tenant check, rate limit and the key check then run as for any
 *   request, and the middleware answers the replay.
 * Only final answers the store keeps in memory (2xx other than 202) are answered so; everything else
 * takes the full path. The middleware remembers a request after the store replayed it.
 */
export class RawReplays {
  readonly #store: IdempotencyStore;
  readonly #requests = new Map<string, RawRequest[]>();
  readonly #candidates = new WeakMap<object, RawRequest>();
  readonly #answers = new WeakMap<object, StoredResponse>();
  readonly #results = new WeakMap<StoredResponse, HandlerResult>();
  readonly #headerNames = new WeakMap<Operation, string[]>();

  constructor(store: IdempotencyStore) {
    this.#store = store;
  }

  #namesOf(op: Operation): string[] {
    let names = this.#headerNames.get(op);
    if (!names) {
      names = headerNamesOf(op);
      this.#headerNames.set(op, names);
    }
    return names;
  }

  #find(ex: Exchange): RawRequest | undefined {
    const op = ex.operation;
    const key = ex.request.headers.get('idempotency-key');
    if (!op || !key || this.#requests.size === 0) return undefined;
    const list = this.#requests.get(`${op.operationId}\u0000${key}`);
    if (!list) return undefined;
    const raw = ex.rawBody ?? EMPTY;
    const target = ex.url.pathname + ex.url.search;
    const names = this.#namesOf(op);
    next: for (const r of list) {
      if (r.target !== target || !sameBytes(r.raw, raw)) continue;
      for (let i = 0; i < names.length; i++) {
        if (ex.request.headers.get(names[i] as string) !== r.headers[i]) continue next;
      }
      return r;
    }
    return undefined;
  }

  /** The JSON body step: deferred for a remembered request, else `parse` now. */
  parse(parse: Step): Step {
    return (ex) => {
      const r = this.#find(ex);
      if (r) {
        this.#candidates.set(ex, r);
        return undefined;
      }
      return parse(ex);
    };
  }

  /** The validation step: a remembered request whose caller's key holds its answer, else parse + validate. */
  validate(parse: Step, validate: Step): Step {
    return (ex) => {
      const r = this.#candidates.get(ex);
      if (r) {
        const op = ex.operation as Operation;
        const key = ex.request.headers.get('idempotency-key') as string;
        const scope = idempotencyScope(callerOf(ex.ctx), op.operationId, key);
        const answer = this.#store.knownAnswer(scope, r.hash);
        if (answer) {
          ex.ctx.params = r.params;
          ex.ctx.query = r.query;
          ex.ctx.body = r.body;
          this.#answers.set(ex, answer);
          return undefined;
        }
        // Not this caller's answer (or no longer kept): the full path, exactly as without a shortcut.
        this.#candidates.delete(ex);
        const parsed = parse(ex);
        if (parsed !== undefined) return parsed.then(() => validate(ex));
      }
      return validate(ex);
    };
  }

  /** The answer `validate` found for this request, as the middleware answers it (serialized once). */
  answerOf(ex: Exchange): HandlerResult | undefined {
    const answer = this.#answers.get(ex);
    if (!answer) return undefined;
    let result = this.#results.get(answer);
    if (!result) {
      result = replayed(answer);
      const body = answer.body;
      if (typeof body === 'object' && body !== null) {
        try {
          result = constantResult(result as JsonResult & { body: object });
        } catch {
          // Not plain JSON (cannot come from the table): serialized per reply instead.
        }
      }
      this.#results.set(answer, result);
    }
    return result;
  }

  /** After the store replayed `hash` to this request: remember its raw inputs, if the answer is kept. */
  remember(ex: Exchange, op: Operation, key: string, scope: string, hash: string): void {
    if (!this.#store.knownAnswer(scope, hash)) return;
    const mapKey = `${op.operationId}\u0000${key}`;
    const raw = ex.rawBody ?? EMPTY;
    const target = ex.url.pathname + ex.url.search;
    const names = this.#namesOf(op);
    const headers = names.map((n) => ex.request.headers.get(n));
    const list = this.#requests.get(mapKey) ?? [];
    if (list.some((r) => r.target === target && sameBytes(r.raw, raw))) return;
    const ctx = ex.ctx;
    list.unshift({
      target,
      headers,
      raw: raw.slice(),
      params: deepFreeze(structuredClone(ctx.params)),
      query: deepFreeze(structuredClone(ctx.query)),
      body: deepFreeze(structuredClone(ctx.body)),
      hash,
    });
    if (list.length > RAW_PER_KEY) list.length = RAW_PER_KEY;
    this.#requests.delete(mapKey);
    this.#requests.set(mapKey, list);
    if (this.#requests.size > RAW_KEYS_KEPT) {
      const oldest = this.#requests.keys().next().value;
      if (oldest !== undefined) this.#requests.delete(oldest);
    }
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Contracts section 3. The key is scoped to caller + operation. The first response is stored (in the
 * handler's transaction when it uses `ctx.transaction`, else right after) and replayed with
 * `Idempotent-Replayed: true`. Same key, other request: 422 `idempotency_key_reused`. Same key while the
 * first is running: 409 `idempotency_in_progress`; the claim is a lease renewed by a heartbeat while the
 * request runs, so a key whose process died is free again within one lease (`IDEMPOTENCY_LEASE_SECONDS`). An internal failure (5xx other than 502) releases it.
 */
export function idempotency(opts: { store: IdempotencyStore; replays?: RawReplays }): Middleware {
  const replays = opts.replays;
  return async function idempotencyMiddleware(ex, next) {
    const op = ex.operation;
    const key = ex.request.headers.get('idempotency-key');
    const applies = op && (op.idempotency !== undefined || op.method === 'POST' || op.method === 'PATCH');
    if (!op || !applies) return next();
    if (!key) {
      if (op.idempotency === 'required') {
        throw new ValidationError([
          { loc: ['header', 'idempotency-key'], msg: 'Field required', type: 'missing' },
        ]);
      }
      return next();
    }
    if (!KEY_RE.test(key)) {
      throw new ValidationError([
        {
          loc: ['header', 'idempotency-key'],
          msg: 'must be 1 to 255 visible ASCII characters',
          type: 'value_error',
        },
      ]);
    }
    const known = replays?.answerOf(ex);
    if (known) {
      ex.result = known;
      return;
    }
    const caller = callerOf(ex.ctx);
    const scope = idempotencyScope(caller, op.operationId, key);
    const hash = requestHash(ex.ctx);
    ex.ctx.idempotency = new KeyInUse(key, scope, hash, () => ex.idempotency);
    const outcome = await opts.store.claim({ scope, caller, operationId: op.operationId, key, hash });
    if (outcome.kind === 'mismatch') {
      throw new ValidationError(
        [
          {
            loc: ['header', 'idempotency-key'],
            msg: 'This Idempotency-Key was used with a different request.',
            type: 'idempotency_key_reused',
          },
        ],
        'idempotency_key_reused',
      );
    }
    if (outcome.kind === 'in_progress') {
      throw conflict('idempotency_in_progress', 'A request with this Idempotency-Key is still in progress.');
    }
    if (outcome.kind === 'replay') {
      ex.result = replayed(outcome.response);
      replays?.remember(ex, op, key, scope, hash);
      return;
    }

    const claim = { scope, stored: false };
    const owner = outcome.owner;
    ex.idempotency = claim;
    // The lease lives as long as this request: renewed while it runs, so a crash frees the key in one lease.
    const heartbeat = setInterval(() => {
      opts.store.renew(scope, owner).catch((err: unknown) => {
        ex.ctx.log.warn({ err }, 'idempotency lease renewal failed');
      });
    }, opts.store.heartbeatMs);
    heartbeat.unref();
    try {
      await next();
    } catch (err) {
      if (!claim.stored) {
        const rendered =
          err instanceof HttpError || err instanceof ValidationError
            ? renderError(err, ex.ctx.requestId)
            : undefined;
        if (rendered && storable(rendered.status)) {
          await opts.store.complete(scope, rendered);
          claim.stored = true;
        } else {
          await opts.store.release(scope, owner);
        }
      }
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
    if (claim.stored) return;
    const stored = ex.result && storedForm(ex.result);
    if (stored) {
      await opts.store.complete(scope, stored);
      claim.stored = true;
    } else {
      await opts.store.release(scope, owner);
    }
  };
}
