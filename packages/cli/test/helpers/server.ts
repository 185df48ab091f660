/**
 * Starts the real server in process on a loopback port, the way packages/server/src/main.ts does (in-memory
 * PGlite, sandbox suppliers, memory mailer), plus an agency user with a company and user code for searches.
 * Imported by path at runtime so this package's typecheck does not pull in the server's sources.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const server = (path: string) => fileURLToPath(new URL(`../../../server/src/${path}`, import.meta.url));

export interface RunningTestServer {
  url: string;
  admin: { email: string; password: string };
  agent: { email: string; password: string } | undefined;
  /** operationIds the server answers 501 for (tests that need them skip). */
  unimplemented: string[];
  close(): Promise<void>;
}

interface Db {
  insertInto(table: string): {
    values(row: Record<string, unknown>): {
      returning(c: string): { executeTakeFirstOrThrow(): Promise<{ id: number }> };
      execute(): Promise<unknown>;
    };
  };
}

export async function startServer(): Promise<RunningTestServer> {
  process.env.PASSWORD_SCRYPT_N ??= '1024';
  const [{ createApp }, { loadConfig }, { openDatabase }, { MemoryMailer }, { serve }, { hashPassword }] =
    await Promise.all([
      import(server('app.ts')),
      import(server('internal/config.ts')),
      import(server('storage/database.ts')),
      import(server('mail/mailer.ts')),
      import(server('kernel/node-adapter.ts')),
      import(server('internal/passwords.ts')),
    ]);
  const config = loadConfig({
    ...process.env,
    SUPPLIERS: 'sandbox',
    PORT: '0',
    LOG_LEVEL: 'silent',
    OPENAPI_PATH: fileURLToPath(new URL('../../../../openapi.json', import.meta.url)),
  });
  const database = await openDatabase({});
  const app = createApp({ config, database, mailer: new MemoryMailer() });
  await app.services.auth.seedAdmin(config.admin.email, config.admin.password);
  const agent = await seedAgent(database.db as Db, hashPassword).catch(() => undefined);
  const running = await serve(app.kernel, { port: 0, host: '127.0.0.1', requestTimeoutMs: 0 });
  return {
    url: running.url.replace('localhost', '127.0.0.1'),
    admin: { email: config.admin.email, password: config.admin.password },
    agent,
    unimplemented: [...app.kernel.unimplemented],
    close: async () => {
      await running.close(1000);
      await database.close();
    },
  };
}

async function seedAgent(db: Db, hashPassword: (p: string) => Promise<string>) {
  const password = 'agent-pass-123';
  const email = 'agent@cli-test.example';
  const company = await db
    .insertInto('companies')
    .values({
      company_name: 'CLI Test Agency',
      company_code: 'CLITEST',
      contact_email: 'ops@cli-test.example',
      settings: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email,
      password_hash: await hashPassword(password),
      full_name: 'CLI Agent',
      role: 'company_admin',
      status: 'active',
      company_id: company.id,
      user_code: 'agent01',
      email_verified_at: new Date(),
    })
    .execute();
  return { email, password };
}
