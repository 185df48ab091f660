/** The human view of a booking's timeline: one row per entry; excerpts under supplier calls on request. */
import type { ResponseOf } from '@travel/sdk';
import { money, renderTable } from '../ui/table.ts';

export type Timeline = ResponseOf<'/api/v1/company/bookings/{booking_id}/timeline', 'get'>;
type Entry = Timeline['entries'][number];

function what(e: Entry): string {
  if (e.money)
    return `${e.money.type} ${money(e.money.amount_minor, e.money.currency)} ${e.money.status}${e.money.failure_code ? ` (${e.money.failure_code})` : ''}`;
  return e.summary;
}

export function timelineLines(t: Timeline, o: { excerpts: boolean }): string[] {
  const lines = [
    `booking ${t.booking_id}  PNR ${t.pnr ?? '(none yet)'}  ${t.entries.length} entries${t.truncated ? ' (older supplier calls left out)' : ''}`,
  ];
  if (!o.excerpts) {
    const rows = t.entries.map((e) => [e.at, e.kind.replace('_', ' '), what(e)]);
    return [...lines, ...renderTable(['time', 'kind', 'what'], rows)];
  }
  for (const e of t.entries) {
    lines.push(`${e.at}  ${e.kind.replace('_', ' ')}  ${what(e)}`);
    const c = e.supplier_call;
    if (!c) continue;
    if (c.request_id || c.trace_id)
      lines.push(
        `    request ${c.request_id ?? c.job_id ?? '-'}${c.trace_id ? `  trace ${c.trace_id}` : ''}`,
      );
    if (c.request_excerpt) lines.push(`    sent     ${c.request_excerpt}`);
    if (c.response_excerpt) lines.push(`    answered ${c.response_excerpt}`);
  }
  return lines;
}
