/**
 * This database's installation (migration 0120): an id generated once, and when. The payment provider's
 * idempotency keys carry it (domains/flight-booking/payment/psp-keys.ts).
 */
import { sql } from 'kysely';
import type { Db } from './schema.ts';

export interface Installation {
  /** 32 hex characters, fixed for the life of the database. */
  id: string;
  /** When it was generated: operations written before it sent keys without the prefix. */
  since: Date;
}

export async function loadInstallation(db: Db): Promise<Installation> {
  const { rows } = await sql<{ id: string; created_at: Date | string }>`
    select id, created_at from installation where singleton
  `.execute(db);
  const row = rows[0];
  if (!row) throw new Error('the installation row is missing (migration 0120)');
  return { id: row.id, since: new Date(row.created_at) };
}
