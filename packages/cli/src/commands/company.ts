/** `travel company …`: your agency (company admins and staff) as tables (`--json` for scripts). */
import type { Command } from 'commander';
import type { Deps } from '../context.ts';
import { field, group, money, type Spec } from '../resource-commands.ts';
import { ruleFields } from './admin.ts';

export const COMPANY: Record<string, { description: string; specs: Spec[] }> = {
  profile: {
    description: 'the company record',
    specs: [
      {
        kind: 'show',
        name: 'show',
        description: 'your company',
        path: '/api/v1/company/profile',
        examples: ['travel company profile show', 'travel company profile show --json'],
      },
    ],
  },
  staff: {
    description: 'the people of your agency',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list staff',
        path: '/api/v1/company/staff',
        columns: [
          ['id', field('staff_id')],
          ['email', field('email')],
          ['name', field('full_name')],
          ['role', field('role')],
          ['status', field('status')],
          ['department', field('department')],
          ['last login', field('last_login_at')],
        ],
        examples: ['travel company staff list'],
      },
      {
        kind: 'create',
        name: 'invite',
        description: 'invite a person (an e-mail with a link to join)',
        method: 'POST',
        path: '/api/v1/company/staff/invite',
        required: [
          ['email', 'email', 'their e-mail'],
          ['name', 'full_name', 'full name'],
        ],
        optional: [
          ['role', 'role', 'company_staff (default) | company_admin'],
          ['department', 'department', 'department'],
          ['phone', 'phone', 'phone'],
        ],
        examples: ['travel company staff invite --email sam@acme.test --name "Sam Lee" --role company_staff'],
      },
    ],
  },
  wallet: {
    description: 'balance and credit',
    specs: [
      {
        kind: 'show',
        name: 'show',
        description: 'balance, credit limit and available credit',
        path: '/api/v1/company/wallet',
        summary: [
          ['balance', money('balance_minor')],
          ['credit limit', money('credit_limit_minor')],
          ['available', money('available_credit_minor')],
        ],
        examples: ['travel company wallet show'],
      },
      {
        kind: 'list',
        name: 'transactions',
        description: 'wallet transactions, newest first',
        path: '/api/v1/company/wallet/transactions',
        columns: [
          ['id', field('transaction_id')],
          ['type', field('type')],
          ['amount', money('amount_minor')],
          ['balance after', money('balance_after_minor')],
          ['booking', field('booking_id')],
          ['reference', field('reference')],
          ['at', field('created_at')],
        ],
        filters: [['type', 'transaction_type', 'transaction type']],
        examples: ['travel company wallet transactions --limit 20'],
      },
    ],
  },
  'markup-rules': {
    description: "your agency's markup rules",
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list markup rules',
        path: '/api/v1/company/markup-rules',
        columns: [
          ['id', field('rule_id')],
          ['type', field('rule_type')],
          ['amount', field('amount')],
          ['currency', field('currency')],
          ['route', (r) => (r.origin || r.destination ? `${r.origin ?? '*'}-${r.destination ?? '*'}` : '')],
          ['cabin', field('cabin_class')],
          ['priority', field('priority')],
          ['active', field('is_active')],
        ],
        examples: ['travel company markup-rules list'],
      },
      {
        kind: 'create',
        name: 'create',
        description: 'create a markup rule',
        method: 'POST',
        path: '/api/v1/company/markup-rules',
        required: [
          ['type', 'rule_type', 'fixed | percentage | per_pax | per_segment'],
          ['amount', 'amount', 'percent or amount', 'number'],
        ],
        optional: ruleFields,
        examples: ['travel company markup-rules create --type fixed --amount 12.5 --currency GBP'],
      },
    ],
  },
  bookings: {
    description: "your agency's flight bookings",
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list flight bookings',
        path: '/api/v1/company/bookings',
        columns: [
          ['id', field('booking_id')],
          ['pnr', field('pnr')],
          ['status', field('status')],
          ['supplier', field('supplier')],
          ['passengers', field('passengers')],
          ['client ref', field('client_ref')],
          ['created', field('created_at')],
        ],
        filters: [
          ['status', 'status', 'booking status'],
          ['search', 'search', 'PNR, name or reference contains'],
        ],
        examples: [
          'travel company bookings list --status confirmed',
          'travel company bookings list --search SMOKE --json',
        ],
      },
    ],
  },
  clients: {
    description: "your agency's clients",
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list clients',
        path: '/api/v1/company/clients',
        columns: [
          ['id', field('client_id')],
          ['name', field('full_name')],
          ['email', field('email')],
          ['type', field('client_type')],
          ['company', field('company_name')],
          ['active', field('is_active')],
        ],
        filters: [['search', 'search', 'name or e-mail contains']],
        examples: ['travel company clients list --search smith'],
      },
      {
        kind: 'show',
        name: 'show',
        description: 'one client',
        path: '/api/v1/company/clients/{client_id}',
        examples: ['travel company clients show 12'],
      },
    ],
  },
};

export function companyCommand(deps: Deps): Command {
  const company = group(
    deps,
    'company',
    'your agency (company admins and staff): profile, staff, wallet, markup rules, bookings, clients',
    [],
  );
  for (const [name, { description, specs }] of Object.entries(COMPANY))
    company.addCommand(group(deps, name, description, specs));
  return company;
}
