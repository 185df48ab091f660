/** `travel admin …`: the platform operations super admins use most, as tables (`--json` for scripts). */
import type { Command } from 'commander';
import type { Deps } from '../context.ts';
import { type Column, field, group, money, type Spec } from '../resource-commands.ts';

const companyColumns: Column[] = [
  ['id', field('company_id')],
  ['code', field('company_code')],
  ['name', field('company_name')],
  ['type', field('company_type')],
  ['status', field('status')],
  ['email', field('contact_email')],
  ['currency', field('currency')],
];

const ruleColumns: Column[] = [
  ['id', field('rule_id')],
  ['company', field('company_id')],
  ['type', field('rule_type')],
  ['amount', field('amount')],
  ['currency', field('currency')],
  ['route', (r) => (r.origin || r.destination ? `${r.origin ?? '*'}-${r.destination ?? '*'}` : '')],
  ['cabin', field('cabin_class')],
  ['airline', field('airline')],
  ['priority', field('priority')],
  ['active', field('is_active')],
];

export const ruleFields = [
  ['currency', 'currency', 'currency of a fixed amount'],
  ['origin', 'origin', 'origin airport (IATA)'],
  ['destination', 'destination', 'destination airport (IATA)'],
  ['cabin', 'cabin_class', 'economy | premium_economy | business | first'],
  ['airline', 'airline', 'airline code'],
  ['priority', 'priority', 'higher wins', 'number'],
  ['description', 'description', 'free text'],
] as const;

export const ADMIN: Record<string, { description: string; specs: Spec[] }> = {
  companies: {
    description: 'agencies on the platform',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list companies',
        path: '/api/v1/admin/companies',
        columns: companyColumns,
        filters: [
          ['status', 'status', 'active | suspended | deleted'],
          ['type', 'company_type', 'travel_agency | corporate | consolidator | sub_agent | ota'],
          ['search', 'search', 'name, code or e-mail contains'],
        ],
        examples: ['travel admin companies list --status active', 'travel admin companies list --json'],
      },
      {
        kind: 'show',
        name: 'show',
        description: 'one company',
        path: '/api/v1/admin/companies/{company_id}',
        examples: ['travel admin companies show 3'],
      },
      {
        kind: 'create',
        name: 'create',
        description: 'create a company',
        method: 'POST',
        path: '/api/v1/admin/companies',
        required: [
          ['name', 'company_name', 'company name'],
          ['code', 'company_code', 'short unique code'],
          ['email', 'contact_email', 'contact e-mail'],
        ],
        optional: [
          ['type', 'company_type', 'travel_agency (default) | corporate | consolidator | sub_agent | ota'],
          ['phone', 'contact_phone', 'contact phone'],
          ['currency', 'currency', 'billing currency'],
          ['credit-limit', 'credit_limit', 'credit limit', 'number'],
        ],
        examples: [
          'travel admin companies create --name "Acme Travel" --code ACME --email ops@acme.test --currency GBP',
        ],
      },
    ],
  },
  users: {
    description: 'user accounts',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list users',
        path: '/api/v1/admin/users',
        columns: [
          ['id', field('user_id')],
          ['email', field('email')],
          ['name', field('full_name')],
          ['role', field('role')],
          ['status', field('status')],
          ['company', field('company_code')],
          ['user code', field('user_code')],
        ],
        filters: [
          ['role', 'role', 'super_admin | company_admin | company_staff | customer'],
          ['status', 'status', 'active | pending | suspended | inactive'],
          ['company-id', 'company_id', 'users of one company', 'number'],
          ['search', 'search', 'e-mail or name contains'],
        ],
        examples: [
          'travel admin users list --role company_admin',
          'travel admin users list --company-id 3 --json',
        ],
      },
      {
        kind: 'show',
        name: 'show',
        description: 'one user',
        path: '/api/v1/admin/users/{user_id}',
        examples: ['travel admin users show 7'],
      },
    ],
  },
  'markup-rules': {
    description: 'platform and per-company markup rules',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list markup rules',
        path: '/api/v1/admin/markup-rules',
        columns: ruleColumns,
        filters: [
          ['company-id', 'company_id', 'rules of one company', 'number'],
          ['active', 'is_active', 'true | false', 'boolean'],
        ],
        examples: ['travel admin markup-rules list --active true'],
      },
      {
        kind: 'create',
        name: 'create',
        description: 'create a markup rule',
        method: 'POST',
        path: '/api/v1/admin/markup-rules',
        required: [
          ['type', 'rule_type', 'fixed | percentage | per_pax | per_segment'],
          ['amount', 'amount', 'percent or amount', 'number'],
        ],
        optional: [
          ['company-id', 'company_id', 'for one company (else platform-wide)', 'number'],
          ...ruleFields,
        ],
        examples: [
          'travel admin markup-rules create --type percentage --amount 5 --origin LHR --priority 10',
        ],
      },
    ],
  },
  reconciliation: {
    description: 'bookings waiting for a supplier answer',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'the reconciliation queue',
        path: '/api/v1/admin/bookings/reconciliation',
        columns: [
          ['booking', field('booking_id')],
          ['type', field('booking_type')],
          ['status', field('status')],
          ['attempts', field('attempts')],
          ['next attempt', field('next_attempt_at')],
          ['last error', field('last_error')],
        ],
        examples: [
          'travel admin reconciliation list',
          'travel admin reconciliation list --json | jq ".items[].booking_id"',
        ],
      },
    ],
  },
  payments: {
    description: 'payments across companies',
    specs: [
      {
        kind: 'list',
        name: 'list',
        description: 'list payments',
        path: '/api/v1/admin/payments',
        columns: [
          ['id', field('payment_id')],
          ['booking', field('booking_id')],
          ['state', field('state')],
          ['amount', money('amount_minor')],
          ['captured', money('captured_minor')],
          ['refunded', money('refunded_minor')],
          ['provider', field('provider')],
        ],
        filters: [
          ['state', 'payment_state', 'payment state'],
          ['company-id', 'company_id', 'payments of one company', 'number'],
        ],
        examples: ['travel admin payments list --state captured'],
      },
    ],
  },
};

export function adminCommand(deps: Deps): Command {
  const admin = group(
    deps,
    'admin',
    'platform administration (super admins): companies, users, markup rules, reconciliation, payments',
    [],
  );
  for (const [name, { description, specs }] of Object.entries(ADMIN))
    admin.addCommand(group(deps, name, description, specs));
  return admin;
}
