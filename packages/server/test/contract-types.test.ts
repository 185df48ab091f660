/**
 * One contract type system (issue #15): handlers take their input typed from `@travel/contract`, never by a
 * cast, and the server throws only error codes the contract declares.
 *
 * The type-level checks below are compiled by `tsc` (the workspace's `pnpm tsc -p tsconfig.json` covers
 * this file): an unused `@ts-expect-error` is itself a compile error, so each one fails the typecheck the
 * day the kernel stops rejecting that mistake. The runtime checks scan the sources.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ErrorCode, errorCodes } from '@travel/contract';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { badRequest, HttpError } from '../src/kernel/errors.ts';
import type { BodyOf, Handler, OperationContext, ParamsOf, QueryOf, Routes } from '../src/kernel/types.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const DOMAINS = join(SRC, 'domains');
const CONTRACT = fileURLToPath(new URL('../../../openapi.json', import.meta.url));
/** Operations whose response bodies are not compile-checked yet (kernel/unchecked-responses.ts): lower it as the list shrinks. */
const UNCHECKED_RESPONSES_MAX = 28;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/**
 * `as` applied to the request input: `ctx.body as X`, `ctx.query.page as number`, `(ctx.body ?? {}) as X`,
 * `(ctx.body as X).field`, `ctx.params['id'] as number`, also split over lines.
 */
const INPUT_CAST =
  /\bctx\s*\.\s*(?:body|query|params)\b(?:\s*\??\.\s*[\w$]+|\s*\[[^\]]*\])*(?:\s*\?\?\s*[^)\n]+)?\)?\s+as\s/g;

function inputCasts(text: string): string[] {
  return [...text.matchAll(INPUT_CAST)].map((m) => {
    const line = text.slice(0, m.index).split('\n').length;
    return `${line}: ${m[0].replace(/\s+/g, ' ')}`;
  });
}

describe('handler input is typed by the contract, never cast', () => {
  it('the scan finds a cast in every form it is written', () => {
    expect(inputCasts('const b = ctx.body as { name: string };')).toHaveLength(1);
    expect(inputCasts('const n = ctx.query.page as number;')).toHaveLength(1);
    expect(inputCasts('const id = ctx.params.booking_id as number;')).toHaveLength(1);
    expect(inputCasts('const r = (ctx.body as { reason?: string } | undefined)?.reason;')).toHaveLength(1);
    expect(inputCasts('let b = (ctx.body ?? {}) as Record<string, unknown>;')).toHaveLength(1);
    expect(inputCasts("const s = ctx.query['status'] as string;")).toHaveLength(1);
    expect(inputCasts('const b = ctx\n  .body as X;')).toHaveLength(1);
    expect(inputCasts('const b = ctx.body;\nconst who = ctx.auth?.userId as string;')).toEqual([]);
  });

  it('no domain casts ctx.body, ctx.query or ctx.params', () => {
    const found = sourceFiles(DOMAINS)
      .map((path) => ({ path: relative(DOMAINS, path).replaceAll('\\', '/'), path_abs: path }))
      .flatMap((f) => inputCasts(readFileSync(f.path_abs, 'utf8')).map((c) => `${f.path}:${c}`));
    expect(found, 'type the handler with its operation (Routes / OperationContext<op>) instead').toEqual([]);
  });

  it('types body, query and params from the operation', () => {
    expectTypeOf<BodyOf<'login'>>().toHaveProperty('email').toEqualTypeOf<string>();
    expectTypeOf<BodyOf<'login'>>().toHaveProperty('password').toEqualTypeOf<string>();
    expectTypeOf<ParamsOf<'adminGetCompany'>>().toEqualTypeOf<{ company_id: number }>();
    // A booking is named by its id or its PNR.
    expectTypeOf<ParamsOf<'getBooking'>>().toEqualTypeOf<{ booking_id: string }>();
    expectTypeOf<QueryOf<'adminListBookings'>>().toHaveProperty('page').toEqualTypeOf<number | undefined>();
    // An operation without a body or parameters gets nothing to read.
    expectTypeOf<BodyOf<'getCurrentUser'>>().toEqualTypeOf<undefined>();
    expectTypeOf<ParamsOf<'getCurrentUser'>>().toEqualTypeOf<Record<string, never>>();
    // A handler shared by several operations sees any of their inputs.
    expectTypeOf<OperationContext<'capturePayment' | 'refundPayment'>['query']>().toEqualTypeOf<
      { amount_minor?: number } | { amount_minor?: number; reason?: string }
    >();
  });

  it('a wrong body field, an unknown operation or a drifted handler does not compile', () => {
    const login: Handler<'login'> = async (ctx) => {
      // @ts-expect-error LoginRequest has no `username`: reading it is a compile error.
      const wrong: unknown = ctx.body.username;
      return {
        status: 401,
        body: { detail: String(wrong), code: 'invalid_credentials', request_id: ctx.requestId },
      };
    };
    const routes: Routes = { login };
    const unknown: Routes = {
      // @ts-expect-error `notAnOperation` is not an operationId of openapi.json.
      notAnOperation: async () => ({ status: 200 }),
    };
    const drifted: Routes = {
      // @ts-expect-error company_id is a number in the contract: a handler expecting a string drifted.
      adminGetCompany: async (ctx: { params: { company_id: string } }) => ({ status: 200, body: ctx.params }),
    };
    expect(Object.keys({ ...routes, ...unknown, ...drifted }).sort()).toEqual([
      'adminGetCompany',
      'login',
      'notAnOperation',
    ]);
    expectTypeOf(login).parameter(0).toHaveProperty('body').toEqualTypeOf<BodyOf<'login'>>();
  });

  it("a handler's JSON body is checked against the operation's responses, except the listed operations", () => {
    // @ts-expect-error ApiInfo's `name` is a string: a drifted body does not compile.
    const drifted: Handler<'getApiInfo'> = async () => ({ status: 200, body: { name: 42 } });
    const error: Handler<'getApiInfo'> = async (ctx) => ({
      status: 404,
      body: { detail: 'x', code: 'not_found', request_id: ctx.requestId },
    });
    expect([drifted, error]).toHaveLength(2);
    // The unchecked list only shrinks: each entry is an operation, and there are no more than today.
    const text = readFileSync(join(SRC, 'kernel/unchecked-responses.ts'), 'utf8');
    const listed = [...text.matchAll(/^ {2}\| '(\w+)'$/gm)].map((m) => m[1] ?? '');
    const ops = new Set(
      Object.values(
        JSON.parse(readFileSync(CONTRACT, 'utf8')).paths as Record<
          string,
          Record<string, { operationId?: string }>
        >,
      ).flatMap((item) => Object.values(item).map((o) => o.operationId)),
    );
    expect(listed.filter((id) => !ops.has(id))).toEqual([]);
    expect(listed.length).toBeLessThanOrEqual(UNCHECKED_RESPONSES_MAX);
  });

  it('the reservation surfaces are typed by their operations: a query typo does not compile', () => {
    type Override = 'adminOverrideHotelBookingStatus' | 'adminOverrideTransportBookingStatus';
    const override = (ctx: OperationContext<Override>) => {
      // @ts-expect-error `new_statuss` is declared by neither override operation.
      const wrong: unknown = ctx.query.new_statuss;
      return [ctx.query.new_status, wrong];
    };
    expect(override).toBeTypeOf('function');
    // No domain handler is untyped: UncheckedHandler is for the kernel, wrappers and fixture contracts.
    const untyped = sourceFiles(DOMAINS).filter((f) => readFileSync(f, 'utf8').includes('UncheckedHandler'));
    expect(untyped.map((f) => relative(SRC, f))).toEqual([]);
  });
});

/** Codes in the source: first argument of the error helpers, second of `new HttpError`, `code: '…'` fields. */
const THROWN = [
  /\b(?:badRequest|unauthorized|forbidden|notFound|conflict|gone|notSupported)\(\s*'([a-z_]+)'/g,
  /\bnew HttpError\(\s*[\w.]+\s*,\s*'([a-z_]+)'/g,
  /\brawErrorResponse\([^)]*?'([a-z_]+)',\s*['`]/g,
  /\bcode:\s*'([a-z_]+)'/g,
];

function codesThrown(text: string): string[] {
  return THROWN.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] ?? ''));
}

function declaredInContract(): Set<string> {
  const codes = new Set<string>();
  JSON.parse(readFileSync(CONTRACT, 'utf8'), (key, value) => {
    if (key === 'x-error-codes' && Array.isArray(value)) for (const c of value) codes.add(String(c));
    return value;
  });
  return codes;
}

describe('error codes: the server throws only what the contract declares', () => {
  it('the scan reads codes from every way the server writes one', () => {
    expect(
      codesThrown(
        "throw badRequest('a_code', 'x'); new HttpError(409, 'b_code', 'y'); return { code: 'c_code' }; rawErrorResponse(400, 'Bad Request', 'd_code', 'z')",
      ).sort(),
    ).toEqual(['a_code', 'b_code', 'c_code', 'd_code']);
  });

  it('every literal code in packages/server/src appears in some x-error-codes of openapi.json', () => {
    const declared = declaredInContract();
    const undeclared = sourceFiles(SRC).flatMap((path) =>
      codesThrown(readFileSync(path, 'utf8'))
        .filter((code) => !declared.has(code))
        .map((code) => `${relative(SRC, path)}: ${code}`),
    );
    expect(undeclared, 'declare the code on the operations that return it (contract/paths)').toEqual([]);
  });

  it("the generated ErrorCode list is the contract's", () => {
    expect([...errorCodes].sort()).toEqual([...declaredInContract()].sort());
  });

  it('HttpError takes only declared codes', () => {
    const err = badRequest('invalid_booking_state', 'no');
    expectTypeOf(err.code).toEqualTypeOf<ErrorCode>();
    expect(err.code).toBe('invalid_booking_state');
    // @ts-expect-error `supplier_timeout` is declared by no operation, so no handler may send it.
    const undeclared = new HttpError(504, 'supplier_timeout', 'late');
    expect(undeclared.status).toBe(504);
  });
});
