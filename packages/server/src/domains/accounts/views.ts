/** The contract's `Company` and `CompanySettings` shapes, shared by the admin and company surfaces. */
import type { Selectable } from 'kysely';
import { fromMinor } from '../../internal/money.ts';
import type { CompaniesTable } from '../../storage/schema.ts';
import { iso } from './http.ts';
import type { CompanyProfilesTable } from './tables.ts';

type CompanyRow = Selectable<CompaniesTable>;
type ProfileRow = Pick<
  Selectable<CompanyProfilesTable>,
  'logo_url' | 'website' | 'business_registration' | 'iata_number'
>;

const parse = (v: unknown): Record<string, unknown> =>
  (typeof v === 'string' ? JSON.parse(v) : (v ?? {})) as Record<string, unknown>;

/** Settings live in `companies.settings` (jsonb); absent keys take these defaults. */
export function settingsView(c: Pick<CompanyRow, 'settings' | 'currency'>) {
  const s = parse(c.settings);
  const pick = <T>(k: string, d: T): T => (s[k] === undefined ? d : (s[k] as T));
  return {
    default_currency: pick('default_currency', c.currency.trim()),
    notification_email: pick<string | null>('notification_email', null),
    booking_confirmation_cc: pick<string | null>('booking_confirmation_cc', null),
    default_markup_type: pick<string | null>('default_markup_type', null),
    default_markup_amount: pick<number | null>('default_markup_amount', null),
    auto_ticket: pick('auto_ticket', false),
    allow_on_hold: pick('allow_on_hold', true),
    max_hold_hours: pick('max_hold_hours', 24),
  };
}

export function companyView(c: CompanyRow, p?: ProfileRow | null) {
  const currency = c.currency.trim();
  return {
    company_id: c.id,
    company_name: c.company_name,
    company_code: c.company_code,
    company_type: c.company_type,
    status: c.status,
    contact_email: c.contact_email,
    contact_phone: c.contact_phone,
    currency,
    credit_limit: fromMinor(Number(c.credit_limit_minor), currency),
    address: (c.address ? parse(c.address) : null) as Record<string, unknown> | null,
    parent_company_id: c.parent_company_id,
    logo_url: p?.logo_url ?? null,
    website: p?.website ?? null,
    business_registration: p?.business_registration ?? null,
    iata_number: p?.iata_number ?? null,
    settings: settingsView(c),
    created_at: iso(c.created_at) as string,
    updated_at: iso(c.updated_at) as string,
  };
}
