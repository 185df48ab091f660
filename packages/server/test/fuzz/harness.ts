/**
 * The fuzz world: the full runtime (every domain wired, sandbox emulators with no latency, job runner
 * stopped) on a fresh test database with the repository's `openapi.json`, dispatching without a socket;
 * plus the per-response checker that turns a response into a list of contract violations.
 */
import { type Agent, request as httpRequest } from 'node:http';
import pino from 'pino';
import { startEmulators } from '../../sandbox/emulators.ts';
import type { App } from '../../src/app.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { type Config, loadConfig } from '../../src/internal/config.ts';
import { deref, listOperations, type OpenApiDoc, type Operation } from '../../src/kernel/contract.ts';
import { ResponseValidator } from '../../src/kernel/response-validator.ts';
import { Router } from '../../src/kernel/router.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { SANDBOX_CREDENTIALS } from '../../src/suppliers/sandbox.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

export const ROLES: readonly Role[] = ['super_admin', 'company_admin', 'company_staff', 'customer'];

/**
 * Callers: a person of each role, no or broken credentials, an API key of each role a key may have
 * (`key_company_staff`, `key_company_admin`), and a company admin impersonated by a super_admin.
 */
export type AuthKind =
  | Role
  | 'none'
  | 'garbage'
  | 'wrong_scheme'
  | 'unknown_user'
  | 'key_company_staff'
  | 'key_company_admin'
  | 'impersonation';

/** The credential callers (issue 28): the fuzzer checks the operation's `x-credential-policy` for them. */
export const CREDENTIAL_CALLERS: readonly AuthKind[] = [
  'key_company_staff',
  'key_company_admin',
  'impersonation',
];

/** One request as the fuzzer builds it; `raw` bodies are sent verbatim. */
export interface FuzzRequest {
  method: string;
  /** Already encoded. */
  path: string;
  auth: AuthKind;
  headers: Record<string, string>;
  body?: { json: unknown } | { raw: string | Uint8Array };
  /** undefined: application/json when there is a body; null: no Content-Type header at all. */
  contentType?: string | null;
}

export interface FuzzResponse {
  status: number;
  contentType: string;
  text: string;
  body: unknown;
  sse: boolean;
}

export interface Violation {
  /** The operation the URL routed to (or the one targeted when routing failed). */
  operationId: string;
  kind:
    | '5xx'
    | 'undeclared_status'
    | 'schema_mismatch'
    | 'error_shape'
    | 'stack_trace'
    | 'secret_leak'
    | 'undeclared_code'
    | 'credential_policy'
    | 'crash';
  message: string;
  request: string;
  response: string;
}

export interface Tokens {
  role: Record<Role, string>;
  unknownUser: string;
  /** API keys of the fresh company, one per role a key may have. */
  key: Record<'company_staff' | 'company_admin', string>;
  /** An impersonation token of the fresh company's admin. */
  impersonation: string;
}

export interface FuzzWorld {
  doc: OpenApiDoc;
  app: App;
  config: Config;
  database: Database;
  operations: Operation[];
  unimplemented: Set<string>;
  /** A fresh company and one user per role (so one operation's side effects do not starve the next). */
  freshTokens(tag: string): Promise<Tokens>;
  send(req: FuzzRequest, tokens: Tokens, ip: string): Promise<FuzzResponse>;
  check(target: Operation, req: FuzzRequest, res: FuzzResponse): Violation[];
  close(): Promise<void>;
}

const SECRETS = (config: Config): string[] => [
  ...config.jwtKeys.map((k) => k.secret),
  SANDBOX_CREDENTIALS.amadeus.clientSecret,
  SANDBOX_CREDENTIALS.duffel.token,
  SANDBOX_CREDENTIALS.mystifly.password,
  SANDBOX_CREDENTIALS.hotelbeds.apiKey,
  SANDBOX_CREDENTIALS.hotelbeds.secret,
  SANDBOX_CREDENTIALS.stripe.secretKey,
  config.admin.password,
];

const STACK_RE = /\n\s+at\s|\bat\s+[\w$.<>]+\s+\(|\.ts:\d+|node_modules\//;
const LOC_ROOTS = new Set(['body', 'query', 'path', 'header']);

const clip = (s: string, n = 400) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

export function describeRequest(req: FuzzRequest): string {
  const body =
    req.body === undefined
      ? ''
      : 'json' in req.body
        ? ` body=${clip(JSON.stringify(req.body.json) ?? 'undefined')}`
        : ` raw=${clip(typeof req.body.raw === 'string' ? JSON.stringify(req.body.raw) : `<${req.body.raw.byteLength} bytes>`)}`;
  const ct = req.contentType === undefined ? '' : ` content-type=${String(req.contentType)}`;
  const h = Object.keys(req.headers).length > 0 ? ` headers=${clip(JSON.stringify(req.headers), 200)}` : '';
  return `${req.method} ${clip(req.path, 300)} auth=${req.auth}${ct}${h}${body}`;
}

/** The Authorization header the fuzzer sends for an `AuthKind`. */
function authHeader(auth: AuthKind, tokens: Tokens): string | undefined {
  switch (auth) {
    case 'none':
      return undefined;
    case 'garbage':
      return 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.';
    case 'wrong_scheme':
      return 'Basic YWRtaW46YWRtaW4=';
    case 'unknown_user':
      return `Bearer ${tokens.unknownUser}`;
    case 'key_company_staff':
      return `Bearer ${tokens.key.company_staff}`;
    case 'key_company_admin':
      return `Bearer ${tokens.key.company_admin}`;
    case 'impersonation':
      return `Bearer ${tokens.impersonation}`;
    default:
      return `Bearer ${tokens.role[auth]}`;
  }
}

/** A fuzz response received over a real socket, and whether its connection was a reused keep-alive one. */
export interface SocketFuzzResponse extends FuzzResponse {
  reusedSocket: boolean;
}

/**
 * Sends a fuzz request through node:http on `agent` (keep-alive: one connection carries request after
 * request). A stream is read for its first chunk, then the response is dropped as a client would.
 */
export function sendOverSocket(
  base: string,
  agent: Agent,
  req: FuzzRequest,
  tokens: Tokens,
): Promise<SocketFuzzResponse> {
  const headers: Record<string, string> = { ...req.headers };
  const authorization = authHeader(req.auth, tokens);
  if (authorization) headers.authorization = authorization;
  let body: string | Uint8Array | undefined;
  if (req.body !== undefined) body = 'json' in req.body ? JSON.stringify(req.body.json) : req.body.raw;
  if (body !== undefined && req.contentType !== null)
    headers['content-type'] = req.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const r = httpRequest(`${base}${req.path}`, { method: req.method, headers, agent }, (res) => {
      const contentType = String(res.headers['content-type'] ?? '');
      const chunks: Buffer[] = [];
      const done = (sse: boolean) => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = !sse && text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({
          status: res.statusCode ?? 0,
          contentType,
          text,
          body: parsed,
          sse,
          reusedSocket: r.reusedSocket,
        });
      };
      if (contentType.includes('text/event-stream')) {
        res.once('data', (c: Buffer) => {
          chunks.push(c);
          res.destroy();
          done(true);
        });
        res.once('end', () => done(true));
        return;
      }
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(false));
      res.on('error', reject);
    });
    r.on('error', reject);
    // `Transfer-Encoding: chunked` in the request's headers: the body goes out in 16 KiB chunks with no
    // declared length, so the server only finds out it is too large while reading it.
    if (body !== undefined && /chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      for (let i = 0; i < bytes.byteLength; i += 16_384) r.write(bytes.subarray(i, i + 16_384));
      r.end();
    } else r.end(body);
  });
}

export async function createFuzzWorld(doc: OpenApiDoc): Promise<FuzzWorld> {
  const database = await testDatabase();
  const clock = new ManualClock(new Date());
  const config = loadConfig({
    SUPPLIERS: 'sandbox',
    PUBLIC_BASE_URL: 'http://travel.test',
    AUTH_STATUS_CACHE_MS: '0',
  });
  const emulators = await startEmulators({ latencyMs: 0 });
  const runtime = await createRuntime({
    config,
    database,
    mailer: new MemoryMailer(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    clock,
    contract: doc,
    sandboxUrls: emulators.urls,
    startJobs: false,
  });
  const app = runtime.app;
  const operations = listOperations(doc);
  const router = new Router(operations);
  const validator = new ResponseValidator(doc);
  const secrets = SECRETS(config).filter((s) => s.length >= 8);
  let seq = 0;

  const freshTokens = async (tag: string): Promise<Tokens> => {
    const code = `FZ${++seq}`;
    const company = await seedCompany(database.db, 'FZ', code);
    const role = {} as Record<Role, string>;
    const ids = {} as Record<Role, string>;
    for (const r of ROLES) {
      const id = `fz-${seq}-${r}`;
      const email = `${tag.toLowerCase().replace(/[^a-z0-9]/g, '')}-${seq}-${r}@fuzz.test`;
      const companyId = r === 'company_admin' || r === 'company_staff' ? company.id : null;
      ids[r] = id;
      role[r] = (
        await seedUser(database.db, app.services.tokens, {
          role: r,
          companyId,
          id,
          email,
          fullName: `Fuzz ${r}`,
          verifiedAt: clock.now(),
        })
      ).token;
    }
    const unknownUser = await app.services.tokens.signAccess({
      userId: `fz-ghost-${seq}`,
      email: `ghost-${seq}@fuzz.test`,
      role: 'super_admin',
      companyId: null,
    });
    const keys = app.services.principals.apiKeys;
    if (!keys) throw new Error('the fuzz world has no API key store');
    const key = {} as Tokens['key'];
    for (const r of ['company_staff', 'company_admin'] as const) {
      key[r] = (
        await keys.create({
          companyId: company.id,
          createdBy: ids.company_admin,
          name: `fuzz ${r}`,
          role: r,
          expiresAt: null,
        })
      ).secret;
    }
    const impersonation = await app.services.tokens.signAccess(
      {
        userId: ids.company_admin,
        email: `${tag.toLowerCase().replace(/[^a-z0-9]/g, '')}-${seq}-company_admin@fuzz.test`,
        role: 'company_admin',
        companyId: company.id,
        impersonatorId: ids.super_admin,
      },
      900,
    );
    return { role, unknownUser, key, impersonation };
  };

  const send = async (req: FuzzRequest, tokens: Tokens, ip: string): Promise<FuzzResponse> => {
    const headers: Record<string, string> = { ...req.headers };
    const authorization = authHeader(req.auth, tokens);
    if (authorization) headers.authorization = authorization;
    let body: string | Uint8Array | undefined;
    if (req.body !== undefined) body = 'json' in req.body ? JSON.stringify(req.body.json) : req.body.raw;
    if (body !== undefined && req.contentType !== null)
      headers['content-type'] = req.contentType ?? 'application/json';
    const abort = new AbortController();
    const res = await app.handle(
      new Request(`http://travel.test${req.path}`, {
        method: req.method,
        headers,
        body: body as ConstructorParameters<typeof Response>[0],
        signal: abort.signal,
      }),
      { ip, signal: abort.signal },
    );
    const contentType = res.headers.get('content-type') ?? '';
    if (contentType.includes('text/event-stream')) {
      // A stream: read what arrives promptly, then hang up like a client would.
      const reader = res.body?.getReader();
      let text = '';
      if (reader) {
        const first = await Promise.race([
          reader.read(),
          new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)),
        ]);
        if (first?.value) text = new TextDecoder().decode(first.value);
        abort.abort();
        await reader.cancel().catch(() => {});
      }
      return { status: res.status, contentType, text, body: undefined, sse: true };
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, contentType, text, body: parsed, sse: false };
  };

  const check = (target: Operation, req: FuzzRequest, res: FuzzResponse): Violation[] => {
    const out: Violation[] = [];
    const pathname = new URL(`http://travel.test${req.path}`).pathname;
    const routed = router.lookup(req.method, pathname);
    // A path of the contract's shape whose parameter the radix router cannot read is that operation's.
    const shaped =
      routed.kind === 'not_found'
        ? router.shape(req.method === 'HEAD' ? 'GET' : req.method, pathname)
        : undefined;
    const op = routed.kind === 'found' ? routed.match.operation : shaped?.operation;
    const opId = op?.operationId ?? target.operationId;
    const add = (kind: Violation['kind'], message: string) =>
      out.push({
        operationId: opId,
        kind,
        message,
        request: describeRequest(req),
        response: `${res.status} ${clip(res.text, 600)}`,
      });

    for (const s of secrets)
      if (res.text.includes(s)) add('secret_leak', `body contains a secret (${s.slice(0, 4)}…)`);
    // An error never echoes unbounded input (issue 28: a 404 once echoed a 5,000-character path).
    const tail = req.path.length > 1000 ? req.path.slice(-500) : undefined;
    if (res.status >= 400 && tail && res.text.includes(tail))
      add('error_shape', 'error body echoes the whole of a long request path');
    if (res.status >= 400 && STACK_RE.test(res.text))
      add('stack_trace', 'error body looks like a stack trace');

    const isJson = res.contentType.includes('json');
    const errorBody = res.body as { detail?: unknown; code?: unknown; request_id?: unknown } | undefined;

    if (res.status >= 400) {
      if (!isJson || !errorBody || typeof errorBody !== 'object') {
        add('error_shape', `error is not a JSON object (content-type ${res.contentType || 'none'})`);
      } else if (res.status === 422) {
        const detail = errorBody.detail;
        if (!Array.isArray(detail) || detail.length === 0)
          add('error_shape', '422 detail is not a non-empty array');
        else
          for (const issue of detail as { loc?: unknown[]; msg?: unknown; type?: unknown }[]) {
            if (!Array.isArray(issue?.loc) || !LOC_ROOTS.has(String(issue.loc[0])))
              add(
                'error_shape',
                `422 loc does not start with body/query/path/header: ${JSON.stringify(issue?.loc)}`,
              );
            if (typeof issue?.msg !== 'string' || typeof issue?.type !== 'string')
              add('error_shape', '422 issue lacks msg/type strings');
          }
      } else if (
        typeof errorBody.detail !== 'string' ||
        typeof errorBody.code !== 'string' ||
        typeof errorBody.request_id !== 'string'
      ) {
        add('error_shape', 'error body lacks detail/code/request_id strings');
      }
    }

    if (!op) {
      // Routing failed (an id that changed the path's shape): only the router's own 404/405 is fine.
      if (!(res.status === 404 || res.status === 405))
        add('undeclared_status', `unrouted path answered ${res.status}`);
      return out;
    }

    const code = typeof errorBody?.code === 'string' ? errorBody.code : undefined;
    // x-credential-policy (issue 28): a key only where `api_key`, an impersonation never where `own_session`.
    const isKey = req.auth === 'key_company_staff' || req.auth === 'key_company_admin';
    const refused =
      !op.public &&
      ((isKey && op.credentialPolicy !== 'api_key') ||
        (req.auth === 'impersonation' && op.credentialPolicy === 'own_session'));
    if (refused && res.status < 400)
      add('credential_policy', `${req.auth} on ${op.credentialPolicy} answered ${res.status}`);
    if (
      refused &&
      res.status === 403 &&
      code !== 'api_key_not_allowed' &&
      code !== 'impersonation_not_allowed'
    )
      add('credential_policy', `${req.auth} on ${op.credentialPolicy} answered 403 ${code ?? ''}`);
    const declared = op.responses[String(res.status)] ?? op.responses[`${String(res.status)[0]}XX`];
    if (res.status >= 500) {
      const allowed =
        (res.status === 501 && code === 'not_implemented' && unimplemented.has(op.operationId)) ||
        ((res.status === 502 || res.status === 503 || res.status === 501) && declared !== undefined);
      if (!allowed) add('5xx', `answered ${res.status} ${code ?? ''}`.trim());
      if (res.status === 501 && code === 'not_implemented') return out;
    }
    if (declared === undefined && res.status !== 500) {
      add('undeclared_status', `${op.operationId} does not declare ${res.status}`);
      return out;
    }
    if (res.sse) return out;
    if (isJson && res.text !== '' && declared !== undefined) {
      try {
        const problems = validator.check(op.operationId, res.status, res.body);
        if (problems.length > 0) add('schema_mismatch', problems.slice(0, 5).join('; '));
      } catch (err) {
        add('schema_mismatch', (err as Error).message);
      }
    }
    const resp = deref<Record<string, unknown> | undefined>(doc, declared);
    const codes = resp?.['x-error-codes'] as string[] | undefined;
    if (res.status >= 400 && res.status !== 422 && code && codes && !codes.includes(code))
      add('undeclared_code', `${res.status} code ${code} is not in x-error-codes [${codes.join(', ')}]`);
    return out;
  };

  const unimplemented = new Set(app.kernel.unimplemented);
  return {
    doc,
    app,
    config,
    database,
    operations,
    unimplemented,
    freshTokens,
    send,
    check,
    async close() {
      await runtime.close();
      await emulators.close();
      await database.close();
    },
  };
}
