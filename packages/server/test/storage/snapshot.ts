import { type Kysely, sql } from 'kysely';

/**
 * Everything a database holds in the current schema, as comparable values: each table's and view's
 * columns (name, type, nullability, default), its indexes, and each table's rows in a stable order.
 * Two snapshots are equal when nothing in the schema was created, dropped, altered or written.
 */
export async function snapshotSchema(db: Kysely<unknown>): Promise<Record<string, unknown>> {
  const relations = await sql<{ name: string; kind: string }>`
    select c.relname as name, c.relkind::text as kind from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'v', 'm', 'i', 'S')
    order by c.relname`.execute(db);
  const columns = await sql<Record<string, unknown>>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const indexes = await sql<Record<string, unknown>>`
    select indexname, indexdef from pg_indexes where schemaname = current_schema()
    order by indexname`.execute(db);
  const rows: Record<string, unknown[]> = {};
  for (const r of relations.rows.filter((x) => x.kind === 'r')) {
    const all = await sql<{
      j: string;
    }>`select row_to_json(t)::text as j from ${sql.table(r.name)} t`.execute(db);
    rows[r.name] = all.rows.map((x) => x.j).sort();
  }
  return { relations: relations.rows, columns: columns.rows, indexes: indexes.rows, rows };
}
