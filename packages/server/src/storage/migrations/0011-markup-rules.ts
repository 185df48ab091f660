import { type Kysely, sql } from 'kysely';

/**
 * Markup rules (spec "Markup rule"): company_id null is platform-wide. Amounts and fare bounds are major
 * units (numeric, exact). Deletion is soft (`deleted_at`) so bookings can still name the rule they used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table markup_rules (
      id serial primary key,
      company_id integer references companies(id),
      rule_type text not null check (rule_type in ('fixed', 'percentage', 'per_pax', 'per_segment')),
      amount numeric(14, 3) not null,
      currency char(3),
      origin text,
      destination text,
      cabin_class text check (cabin_class in ('economy', 'premium_economy', 'business', 'first')),
      airline text,
      gds_provider text,
      min_fare numeric(14, 3),
      max_fare numeric(14, 3),
      priority integer not null default 0,
      is_active boolean not null default true,
      description text,
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index markup_rules_company_idx on markup_rules (company_id) where deleted_at is null;
  `.execute(db);
}
