/** The contract's `Company` and `CompanySettings` shapes, shared by the admin and company surfaces. */
import type { components } from '@travel/contract';
import type { Selectable } from 'kysely';
import { fromMinor, storedCurrency } from '../../internal/money.ts';
import {
  booleanOr,
  jsonObject,
  type Members,
  member,
  memberOr,
  numberOr,
  stringOr,
} from '../../internal/narrow.ts';
import type { CompaniesTable } from '../../storage/schema.ts';
import type { CompanyProfilesTable } from './tables.ts';

type Schemas = components['schemas'];
type CompanyRow = Selectable<CompaniesTable>;
type ProfileRow = Pick<
  Selectable<CompanyProfilesTable>,
  'logo_url' | 'website' | 'business_registration' | 'iata_number'
>;

const COMPANY_TYPES: Members<Schemas['CompanyType']> = {
  travel_agency: true,
  corporate: true,
  consolidator: true,
  sub_agent: true,
  ota: true,
};
const MARKUP_TYPES: Members<Schemas['MarkupRuleType']> = {
  fixed: true,
  percentage: true,
  per_pax: true,
  per_segment: true,
};

/** Settings live in `companies.settings` (jsonb); absent keys take these defaults. */
export function settingsView(c: Pick<CompanyRow, 'settings' | 'currency'>): Schemas['CompanySettings'] {
  const s = jsonObject(c.settings);
  const currency = storedCurrency(c.currency);
  return {
    default_currency: typeof s.default_currency === 'string' ? storedCurrency(s.default_currency) : currency,
    notification_email: stringOr(s.notification_email, null),
    booking_confirmation_cc: stringOr(s.booking_confirmation_cc, null),
    default_markup_type: memberOr(MARKUP_TYPES, s.default_markup_type, null),
    default_markup_amount: numberOr(s.default_markup_amount, null),
    auto_ticket: booleanOr(s.auto_ticket, false),
    allow_on_hold: booleanOr(s.allow_on_hold, true),
    max_hold_hours: numberOr(s.max_hold_hours, 24),
  };
}

/** The stored address (jsonb, written from the contract's `Address`): its known string fields. */
function addressView(v: unknown): Schemas['Address'] | null {
  if (v === null || v === undefined) return null;
  const a = jsonObject(v);
  const out: Schemas['Address'] = {};
  for (const k of ['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const) {
    const x = a[k];
    if (typeof x === 'string') out[k] = x;
  }
  return out;
}

export function companyView(c: CompanyRow, p?: ProfileRow | null): Schemas['Company'] {
  const currency = storedCurrency(c.currency);
  return {
    company_id: c.id,
    company_name: c.company_name,
    company_code: c.company_code,
    company_type: member(COMPANY_TYPES, c.company_type, 'companies.company_type'),
    status: c.status,
    contact_email: c.contact_email,
    contact_phone: c.contact_phone,
    currency,
    credit_limit: fromMinor(Number(c.credit_limit_minor), currency),
    address: addressView(c.address),
    parent_company_id: c.parent_company_id,
    logo_url: p?.logo_url ?? null,
    website: p?.website ?? null,
    business_registration: p?.business_registration ?? null,
    iata_number: p?.iata_number ?? null,
    settings: settingsView(c),
    created_at: new Date(c.created_at).toISOString(),
    updated_at: new Date(c.updated_at).toISOString(),
  };
}
