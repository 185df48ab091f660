/**
 * Retention of the outbox (docs/events.md): events and their finished deliveries older than
 * EVENTS_RETENTION_DAYS (default 30) are deleted by the maintenance pass. An event with a delivery still
 * pending is kept until that delivery succeeds or dies.
 */
import { sql } from 'kysely';
import type { Db } from '../storage/schema.ts';
import { webhookDb } from './tables.ts';

export async function purgeEvents(db: Db, before: Date): Promise<{ events: number; deliveries: number }> {
  const w = webhookDb(db);
  const d = await w
    .deleteFrom('webhook_deliveries')
    .where('status', '!=', 'pending')
    .where('created_at', '<', before)
    .executeTakeFirst();
  const e = await w
    .deleteFrom('events')
    .where('created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('webhook_deliveries as p')
            .select(sql`1`.as('one'))
            .whereRef('p.event_id', '=', 'events.id')
            .where('p.status', '=', 'pending'),
        ),
      ),
    )
    .executeTakeFirst();
  return { events: Number(e.numDeletedRows ?? 0), deliveries: Number(d.numDeletedRows ?? 0) };
}
