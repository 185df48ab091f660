/**
 * `travel api`: every operation of openapi.json resolves (method + concrete path -> operation, its
 * idempotency known and applied), typed -f fields, and one operation of each surface driven through the
 * built binary against the real server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { operationsSource } from '../scripts/operations.ts';
import { buildApiRequest, resolveOperation, setField, typedValue } from '../src/api-request.ts';
import { UsageError } from '../src/errors.ts';
import { OPERATIONS } from '../src/operations.generated.ts';
import { freshConfigDir, runCli } from './helpers/cli.ts';

const root = new URL('../../../', import.meta.url);
const spec = JSON.parse(readFileSync(new URL('openapi.json', root), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; 'x-idempotency'?: string }>>;
};
const contractOps = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, op]) => ({ method: method.toUpperCase(), path, ...op })),
);

describe('travel api resolves every operation of the contract', () => {
  it('the operation table is openapi.json as it is now (run `pnpm --filter @travel/cli operations` if not)', () => {
    // The generator writes what the formatter would (single quotes), so the shipped file is its output as is.
    const shipped = readFileSync(new URL('../src/operations.generated.ts', import.meta.url), 'utf8');
    expect(shipped).toBe(operationsSource(spec as never));
    expect(OPERATIONS).toHaveLength(contractOps.length);
    expect(contractOps.length).toBeGreaterThanOrEqual(178);
  });

  it.each(contractOps.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', (_name, op) => {
    // A concrete path: every {param} filled in, as a person types it.
    const concrete = op.path.replace(/\{[^}]+\}/g, (p) =>
      p === '{action}' ? 'void' : p === '{provider}' ? 'amadeus' : '42',
    );
    const resolved = resolveOperation(op.method, concrete);
    expect(resolved?.operationId).toBe(op.operationId);
    expect(resolved?.idempotency).toBe(op['x-idempotency'] ?? 'none');
    const request = buildApiRequest(
      { method: op.method, path: concrete, fields: [], query: [], headers: [] },
      () => 'key-1',
    );
    expect(request.headers['Idempotency-Key']).toBe(op['x-idempotency'] ? 'key-1' : undefined);
    // Without the /api/v1 prefix too (as `gh api` takes paths relative to the API root).
    const short = concrete.slice('/api/v1'.length);
    if (
      concrete.startsWith('/api/v1/') &&
      !resolveOperation(op.method, short)?.template.startsWith(short.split('/').slice(0, 2).join('/'))
    ) {
      expect(resolveOperation(op.method.toLowerCase(), concrete.slice('/api/v1'.length))?.operationId).toBe(
        op.operationId,
      );
    }
  });

  it('a literal segment wins over a parameter (reconciliation is not a booking id)', () => {
    expect(resolveOperation('GET', '/api/v1/admin/bookings/reconciliation')?.operationId).toBe(
      'adminGetReconciliationQueue',
    );
    expect(resolveOperation('GET', '/api/v1/admin/bookings/7')?.operationId).toBe('adminGetBooking');
  });

  it('an unknown path or a method the path does not take is a usage error naming the choices', () => {
    expect(() =>
      buildApiRequest({ method: 'GET', path: '/api/v1/nope', fields: [], query: [], headers: [] }),
    ).toThrow(UsageError);
    expect(() =>
      buildApiRequest({ method: 'DELETE', path: '/api/v1/auth/me', fields: [], query: [], headers: [] }),
    ).toThrow(/takes GET/);
    expect(() =>
      buildApiRequest({ method: 'FETCH', path: '/api/v1/auth/me', fields: [], query: [], headers: [] }),
    ).toThrow(/METHOD/);
  });

  it('-f values are typed; key[sub] and key[] nest; GET fields go to the query', () => {
    expect(typedValue('12')).toBe(12);
    expect(typedValue('-1.5')).toBe(-1.5);
    expect(typedValue('true')).toBe(true);
    expect(typedValue('null')).toBeNull();
    expect(typedValue('007x')).toBe('007x');
    expect(typedValue('{"a":1}')).toEqual({ a: 1 });
    expect(typedValue('"12"')).toBe('12');
    expect(typedValue('@notes.txt', () => 'hello\n')).toBe('hello');
    expect(typedValue('@pax.json', () => '[{"first_name":"Ada"}]')).toEqual([{ first_name: 'Ada' }]);
    const body: Record<string, unknown> = {};
    setField(body, 'contact[email]', 'a@b.test');
    setField(body, 'tags[]', 'x');
    setField(body, 'tags[]', 'y');
    expect(body).toEqual({ contact: { email: 'a@b.test' }, tags: ['x', 'y'] });
    const post = buildApiRequest({
      method: 'post',
      path: '/api/v1/admin/markup-rules',
      fields: ['amount=5', 'is_active=true', 'rule_type=percentage'],
      query: [],
      headers: [],
      input: { description: 'from file' },
    });
    expect(post.body).toEqual({
      description: 'from file',
      amount: 5,
      is_active: true,
      rule_type: 'percentage',
    });
    const get = buildApiRequest({
      method: 'GET',
      path: 'airports/search?limit=3',
      fields: ['query=dubai'],
      query: ['country=AE'],
      headers: ['Idempotency-Key: mine'],
    });
    expect(get.operation.path).toBe('/api/v1/airports/search');
    expect(get.query).toEqual({ limit: '3', country: 'AE', query: 'dubai' });
    expect(get.body).toBeUndefined();
  });

  it('a key the caller brings is used instead of a fresh one', () => {
    const r = buildApiRequest({
      method: 'POST',
      path: '/api/v1/bookings/7/authorize',
      fields: [],
      query: [],
      headers: [],
      idempotencyKey: 'order-7',
    });
    expect(r.headers['Idempotency-Key']).toBe('order-7');
  });
});

const url = inject('serverUrl');
const admin = inject('admin');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };

async function token(who: { email: string; password: string }, configDir: string): Promise<string> {
  const r = await runCli(
    ['api', 'POST', '/api/v1/auth/login', '-f', `email=${who.email}`, '-f', `password=${who.password}`],
    {
      env,
      configDir,
    },
  );
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { access_token: string }).access_token;
}

describe.skipIf(!url)('travel api against the real server (every surface)', () => {
  it('auth, search, bookings, admin, company and customer operations, with exit codes and JSON out', async () => {
    expect(agent).not.toBeNull();
    const configDir = freshConfigDir();
    const agentToken = await token(agent as { email: string; password: string }, configDir);
    const adminToken = await token(admin, configDir);
    const asAgent = { ...env, TRAVEL_TOKEN: agentToken };
    const asAdmin = { ...env, TRAVEL_TOKEN: adminToken };

    // auth
    const me = await runCli(['api', 'GET', '/api/v1/auth/me'], { env: asAgent, configDir });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).email).toBe(agent?.email);
    // reference search, path without /api/v1, -f as query for GET
    const airports = await runCli(['api', 'GET', 'airports/search', '-f', 'query=dubai'], {
      env: asAgent,
      configDir,
    });
    expect(airports.code, airports.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(airports.stdout))).toContain('DXB');
    // flight search (POST; the legs from an @file.json field), then its event stream printed line by line
    const leg = join(configDir, 'leg.json');
    const date = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    writeFileSync(leg, JSON.stringify([{ origin: 'LHR', destination: 'DXB', departureDate: date }]));
    const search = await runCli(
      [
        'api',
        'POST',
        '/api/v1/flight/getFare',
        '-f',
        `searchAirLegs=@${leg}`,
        '-f',
        'adults=1',
        '-f',
        `companyCode=${agent?.companyCode}`,
        '-f',
        `userCode=${agent?.userCode}`,
      ],
      { env: asAgent, configDir },
    );
    expect(search.code, search.stderr).toBe(0);
    const searchId = (JSON.parse(search.stdout) as { searchId: string }).searchId;
    expect(searchId).toBeTruthy();
    const stream = await runCli(['api', 'GET', `/api/v1/flight/getFare/stream/${searchId}`], {
      env: asAgent,
      configDir,
    });
    expect(stream.code, stream.stderr).toBe(0);
    expect(stream.stdout).toMatch(/^event: \S+$/m);
    expect(stream.stdout).toMatch(/^data: \{/m);
    expect(stream.stdout).toMatch(/^event: done$/m);
    // bookings: a booking that does not exist is exit 4 with the contract's code and request id
    const missing = await runCli(['api', 'GET', '/api/v1/bookings/999999'], { env: asAgent, configDir });
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/code=\S+_not_found|status=404/);
    expect(missing.stderr).toContain('request_id=');
    // a required Idempotency-Key is added (the verbose line shows it) even when the call is refused
    const pnr = await runCli(
      ['api', 'POST', '/api/v1/bookings/createPnr', '-f', 'offer_id=nope', '--verbose'],
      {
        env: asAgent,
        configDir,
      },
    );
    expect(pnr.code).not.toBe(0);
    expect(pnr.stderr).toMatch(/idempotency_key=[0-9a-f-]{36}/);
    // admin: allowed for the super admin, 403 (exit 3) for the agent
    const companies = await runCli(['api', 'GET', '/api/v1/admin/companies', '--query', 'page_size=5'], {
      env: asAdmin,
      configDir,
    });
    expect(companies.code, companies.stderr).toBe(0);
    expect(JSON.parse(companies.stdout).items.length).toBeGreaterThan(0);
    const forbidden = await runCli(['api', 'GET', '/api/v1/admin/companies'], { env: asAgent, configDir });
    expect(forbidden.code).toBe(3);
    // company
    const profile = await runCli(['api', 'GET', '/api/v1/company/profile'], { env: asAgent, configDir });
    expect(profile.code, profile.stderr).toBe(0);
    expect(JSON.parse(profile.stdout).company_code).toBe(agent?.companyCode);
    // customer: the agent is not a customer (exit 3); an unauthenticated call is exit 3 as well
    const customer = await runCli(['api', 'GET', '/api/v1/customer/bookings'], { env: asAgent, configDir });
    expect(customer.code).toBe(3);
    const anonymous = await runCli(['api', 'GET', '/api/v1/customer/profile'], { env, configDir });
    expect(anonymous.code).toBe(3);
    // usage: exit 2 without a request; --list names every operation
    const bare = await runCli(['api'], { env: asAgent, configDir });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('travel api --list');
    const list = await runCli(['api', '--list'], { env: asAgent, configDir });
    expect(list.stdout.trim().split('\n')).toHaveLength(contractOps.length);
    const usage = await runCli(['api', 'PUT', '/api/v1/auth/me'], { env: asAgent, configDir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('takes GET');
  });

  it('--input reads the body from a file and -f adds to it (PATCH company settings round trip)', async () => {
    const configDir = freshConfigDir();
    const agentToken = await token(agent as { email: string; password: string }, configDir);
    const asAgent = { ...env, TRAVEL_TOKEN: agentToken };
    const file = join(configDir, 'settings.json');
    writeFileSync(file, JSON.stringify({ default_markup_type: 'percentage' }));
    const patched = await runCli(
      [
        'api',
        'PATCH',
        '/api/v1/company/profile/settings',
        '--input',
        file,
        '-f',
        'default_markup_amount=2.5',
      ],
      { env: asAgent, configDir },
    );
    expect(patched.code, patched.stderr).toBe(0);
    const after = await runCli(['api', 'GET', '/api/v1/company/profile/settings'], {
      env: asAgent,
      configDir,
    });
    expect(JSON.parse(after.stdout)).toMatchObject({
      default_markup_type: 'percentage',
      default_markup_amount: 2.5,
    });
  });

  it('admin and company commands print tables, and --json the page', async () => {
    const configDir = freshConfigDir();
    const adminToken = await token(admin, configDir);
    const agentToken = await token(agent as { email: string; password: string }, configDir);
    const table = await runCli(['admin', 'companies', 'list'], {
      env: { ...env, TRAVEL_TOKEN: adminToken },
      configDir,
    });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^id\s+code\s+name\s+type\s+status/);
    expect(table.stdout).toContain(agent?.companyCode);
    const users = await runCli(['admin', 'users', 'list', '--role', 'company_admin', '--json'], {
      env: { ...env, TRAVEL_TOKEN: adminToken },
      configDir,
    });
    expect(users.code, users.stderr).toBe(0);
    const page = JSON.parse(users.stdout) as { items: { role: string }[] };
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((u) => u.role === 'company_admin')).toBe(true);
    const queue = await runCli(['admin', 'reconciliation', 'list', '--json'], {
      env: { ...env, TRAVEL_TOKEN: adminToken },
      configDir,
    });
    expect(queue.code, queue.stderr).toBe(0);
    expect(JSON.parse(queue.stdout)).toHaveProperty('items');
    const wallet = await runCli(['company', 'wallet', 'show'], {
      env: { ...env, TRAVEL_TOKEN: agentToken },
      configDir,
    });
    expect(wallet.code, wallet.stderr).toBe(0);
    expect(wallet.stdout).toMatch(/^balance\s+[A-Z]{3} [\d,]+\.\d\d$/m);
    expect(wallet.stdout).toMatch(/balance_minor: \d+/);
    const staff = await runCli(['company', 'staff', 'list'], {
      env: { ...env, TRAVEL_TOKEN: agentToken },
      configDir,
    });
    expect(staff.code, staff.stderr).toBe(0);
    expect(staff.stdout).toContain(agent?.email);
    const code = `CLI${Date.now().toString(36).toUpperCase()}`.slice(0, 10);
    const created = await runCli(
      [
        'admin',
        'companies',
        'create',
        '--name',
        'CLI Test Travel',
        '--code',
        code,
        '--email',
        `ops-${code.toLowerCase()}@cli.test`,
        '--json',
      ],
      { env: { ...env, TRAVEL_TOKEN: adminToken }, configDir },
    );
    expect(created.code, created.stderr).toBe(0);
    const company = JSON.parse(created.stdout) as { company_id: number; company_code: string };
    expect(company.company_code).toBe(code);
    const shown = await runCli(['admin', 'companies', 'show', String(company.company_id)], {
      env: { ...env, TRAVEL_TOKEN: adminToken },
      configDir,
    });
    expect(shown.stdout).toContain(`company_code: ${code}`);
    const missingFlag = await runCli(['admin', 'companies', 'create', '--name', 'x'], {
      env: { ...env, TRAVEL_TOKEN: adminToken },
      configDir,
    });
    expect(missingFlag.code).toBe(2);
    expect(missingFlag.stderr).toContain('--code');
  });
});
