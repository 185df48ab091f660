/**
 * Renders `api.md`, the SDK's whole surface (method, HTTP operation, short description), from the table in
 * `src/surface.ts` and the summaries of openapi.json. `test/surface.test.ts` fails when api.md is stale.
 * Run: `node scripts/generate-api-md.ts [../../openapi.json] [api.md]` (or `pnpm --filter @travel/sdk generate`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { SURFACE } from '../src/surface.ts';

interface Contract {
  paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
}

const NAMESPACES: Record<string, string> = {
  auth: 'Sessions, registration and the caller’s identity.',
  reference: 'Airline and airport suggestions.',
  flights: 'Flight search: start it, then stream, group by GDS or batch-read through the search handle.',
  bookings: 'Flight bookings: pricing calls around an offer, booking (idempotent, 502-aware), servicing.',
  payments: 'Payments on a flight booking; money calls carry and return an Idempotency-Key.',
  tickets: 'Ticket issuance, status, documents, void / refund / reissue.',
  seats: 'Seat maps, selection and paid-seat issuance.',
  ancillaries: 'SSRs, paid ancillaries and EMDs.',
  hotels: 'Hotel search, rate check, booking and the caller’s hotel bookings.',
  transfers: 'Ground-transfer search, quote, booking and the caller’s transfer bookings.',
  admin: 'Platform administration (admin token).',
  company: 'The agency’s own data (company staff or an API key).',
  customer: 'A traveller’s own bookings, payments, profile and saved travelers.',
  service: 'Health, metrics, public configuration, the contract and operator maintenance.',
  events:
    'The company’s event feed: pages (`list` iterates them) and the live stream, resumed with Last-Event-ID.',
};

/** Every operation of the contract: operationId → `METHOD /path` and its summary. */
function operationsOf(contract: Contract) {
  const ops = new Map<string, { http: string; summary: string }>();
  for (const [path, item] of Object.entries(contract.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId)
        ops.set(op.operationId, { http: `${method.toUpperCase()} ${path}`, summary: op.summary ?? '' });
    }
  }
  return ops;
}

/** A Markdown table with padded columns, as the repository's formatter (biome) writes tables. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** The text of api.md. */
export function renderApiMd(contract: Contract): string {
  const ops = operationsOf(contract);
  const groups = new Map<string, string[][]>();
  for (const [operationId, entry] of Object.entries(SURFACE)) {
    const op = ops.get(operationId);
    if (!op) throw new Error(`${operationId} is in src/surface.ts but not in openapi.json`);
    const namespace = entry.method.split('.')[0] ?? '';
    const row = [`\`${entry.method}\``, `\`${op.http}\` (${operationId})`, op.summary.replaceAll('|', '\\|')];
    groups.set(namespace, [...(groups.get(namespace) ?? []), row]);
  }
  const sections = [...groups].map(([namespace, rows]) =>
    [
      `## ${namespace}`,
      '',
      NAMESPACES[namespace] ?? '',
      '',
      ...table(['method', 'HTTP operation', 'description'], rows),
      '',
    ].join('\n'),
  );
  return [
    '<!-- Generated from src/surface.ts and openapi.json by scripts/generate-api-md.ts. Do not edit. -->',
    '# @travel/sdk API',
    '',
    `Every operation of the contract (${ops.size}) and the method of \`createTravelClient()\` that calls it.`,
    'Every method takes the per-request options (`{ signal, timeout, maxRetries, headers, idempotencyKey }`)',
    'as its last argument. Search handles come from `search(body)` or `resume(searchId)`.',
    '',
    ...sections,
  ].join('\n');
}

// Run as a script (import.meta.main needs Node 24; this works on 22 too).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [input = '../../openapi.json', output = 'api.md'] = process.argv.slice(2);
  writeFileSync(output, renderApiMd(JSON.parse(readFileSync(input, 'utf8')) as Contract));
  console.log(`${output}: ${Object.keys(SURFACE).length} operations`);
}
