/**
 * OnePoint transport: session bearer (CreateSession, renewed once when the supplier says it expired),
 * per-call deadline, and the mapping of every failure to a SupplierError. OnePoint reports business
 * errors inside HTTP 200 bodies (`Success: false, Errors: [{ Code, Message }]`).
 */
import { userAgent } from '../../internal/build-info.ts';
import { type CallOptions, SupplierError, type SupplierErrorKind } from '../ports/errors.ts';
import { supplierUrl } from '../supplier-url.ts';

export interface MystiflyConfig {
  baseUrl: string;
  userName: string;
  password: string;
  accountNumber: string;
  /** OnePoint `Target`: Test in sandbox, Production live. */
  target?: 'Test' | 'Production';
  fetch?: typeof fetch;
  /** Per-call deadline in ms. Default 30 s (search and book can be slow). */
  timeoutMs?: number;
}

export interface OnePointEnvelope {
  Success: boolean;
  Data: unknown;
  Message?: string | null;
  Errors?: { Code: string; Message: string }[];
}

/** A business error inside a 200 body; the adapter turns some codes into results, not errors. */
export class OnePointError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'OnePointError';
    this.code = code;
  }
}

const KIND_BY_CODE: Record<string, SupplierErrorKind> = {
  ERSER001: 'auth_failed',
  ERSER002: 'auth_failed',
  ERSER003: 'auth_failed',
  ERREV001: 'offer_expired',
  ERBUK005: 'offer_expired',
  ERREV003: 'offer_expired',
  ERBUK002: 'offer_expired',
  ERREV002: 'sold_out',
  ERBUK003: 'sold_out',
  ERBUK042: 'rejected',
  ERTRD001: 'not_found',
  ERTKT001: 'not_found',
  ERCBK001: 'not_found',
  ERBNT001: 'not_found',
  ERPTR009: 'not_found',
};

export function toSupplierError(e: OnePointError): SupplierError {
  return new SupplierError('mystifly', KIND_BY_CODE[e.code] ?? 'invalid_request', e.message, {
    supplierCode: e.code,
    cause: e,
  });
}

export class MystiflyClient {
  private readonly config: MystiflyConfig;
  private readonly fetchFn: typeof fetch;
  private session: Promise<string> | undefined;

  constructor(config: MystiflyConfig) {
    this.config = config;
    this.fetchFn = config.fetch ?? fetch;
  }

  get target(): string {
    return this.config.target ?? 'Test';
  }

  /**
   * One OnePoint call returning `Data`. `effect: true` marks calls that change supplier state: a timeout,
   * reset or 5xx on them may have acted, so it is `unknown_outcome`, never a plain failure.
   */
  async call<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    opts: CallOptions & { effect?: boolean } = {},
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.sessionId(opts);
      const env = await this.send(method, path, body, token, opts);
      if (env.Success) return env.Data as T;
      const err = env.Errors?.[0] ?? { Code: 'ERUNKNOWN', Message: env.Message ?? 'OnePoint call failed' };
      // A session lapses after inactivity; renew once and retry, the call itself never ran.
      if (err.Code === 'ERSER002' && attempt === 0) {
        this.session = undefined;
        continue;
      }
      throw new OnePointError(err.Code, err.Message);
    }
  }

  private sessionId(opts: CallOptions): Promise<string> {
    if (!this.session) {
      const pending = this.send(
        'POST',
        '/api/v1/CreateSession',
        {
          UserName: this.config.userName,
          Password: this.config.password,
          AccountNumber: this.config.accountNumber,
        },
        undefined,
        { signal: opts.signal },
      ).then((env) => {
        const id = (env.Data as { SessionId?: string } | null)?.SessionId;
        if (!env.Success || !id) {
          const e = env.Errors?.[0];
          throw new SupplierError('mystifly', 'auth_failed', e?.Message ?? 'CreateSession failed', {
            supplierCode: e?.Code,
          });
        }
        return id;
      });
      pending.catch(() => {
        if (this.session === pending) this.session = undefined;
      });
      this.session = pending;
    }
    return this.session;
  }

  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    token: string | undefined,
    opts: CallOptions & { effect?: boolean },
  ): Promise<OnePointEnvelope> {
    const timeout = AbortSignal.timeout(this.config.timeoutMs ?? 30_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': userAgent() };
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const url = supplierUrl('mystifly', this.config.baseUrl, path);
    let res: Response;
    try {
      res = await this.fetchFn(url, {
        method,
        headers,
        body: method === 'POST' ? JSON.stringify(body) : undefined,
        signal,
      });
    } catch (cause) {
      const timedOut = timeout.aborted || (cause as Error)?.name === 'TimeoutError';
      const kind: SupplierErrorKind = opts.effect ? 'unknown_outcome' : timedOut ? 'timeout' : 'unavailable';
      throw new SupplierError(
        'mystifly',
        kind,
        `OnePoint ${path}: ${timedOut ? 'timed out' : 'connection failed'}`,
        {
          cause,
        },
      );
    }
    if (res.status >= 500) {
      await res.body?.cancel();
      throw new SupplierError(
        'mystifly',
        opts.effect ? 'unknown_outcome' : 'unavailable',
        `OnePoint ${path}: HTTP ${res.status}`,
        {
          supplierCode: String(res.status),
        },
      );
    }
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel();
      this.session = undefined;
      throw new SupplierError('mystifly', 'auth_failed', `OnePoint ${path}: HTTP ${res.status}`);
    }
    try {
      return (await res.json()) as OnePointEnvelope;
    } catch (cause) {
      throw new SupplierError(
        'mystifly',
        opts.effect ? 'unknown_outcome' : 'unavailable',
        `OnePoint ${path}: unreadable body`,
        {
          cause,
        },
      );
    }
  }
}

/** Runs a OnePoint call, turning in-body errors into SupplierErrors. */
export async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof OnePointError) throw toSupplierError(e);
    throw e;
  }
}
