/** Small helpers shared by the admin, company and customer handlers: paging, periods, dates. */
import type { RequestContext } from '../../kernel/types.ts';

export interface Paging {
  page: number;
  page_size: number;
  offset: number;
}

/** The kernel applies the contract's defaults (page 1, page_size 20); these guard direct calls. */
export function paging(ctx: RequestContext): Paging {
  const page = Number(ctx.query.page ?? 1);
  const page_size = Number(ctx.query.page_size ?? 20);
  return { page, page_size, offset: (page - 1) * page_size };
}

export const pageBody = <T>(items: T[], total: number | string | bigint, p: Paging) => ({
  items,
  total: Number(total),
  page: p.page,
  page_size: p.page_size,
});

/** A timestamp as ISO 8601 text; null stays null. */
export function iso(d: Date | string): string;
export function iso(d: Date | string | null | undefined): string | null;
export function iso(d: Date | string | null | undefined): string | null {
  return d ? new Date(d).toISOString() : null;
}
/** A date (a `date` column, as text or a Date) as YYYY-MM-DD; null stays null. */
export function isoDate(d: Date | string): string;
export function isoDate(d: Date | string | null | undefined): string | null;
export function isoDate(d: Date | string | null | undefined): string | null {
  if (!d) return null;
  if (typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d)) return d;
  return new Date(d).toISOString().slice(0, 10);
}

export const ok = <T>(body: T, status = 200) => ({ status, body });

/** `date_from`/`date_to` are inclusive calendar days (UTC). */
export function dayRange(q: Record<string, unknown>): { from?: Date; to?: Date } {
  const out: { from?: Date; to?: Date } = {};
  if (typeof q.date_from === 'string') out.from = new Date(`${q.date_from}T00:00:00Z`);
  if (typeof q.date_to === 'string')
    out.to = new Date(new Date(`${q.date_to}T00:00:00Z`).getTime() + 86_400_000);
  return out;
}

/** A report window ending now (openapi `ReportPeriod`). mtd/ytd start at the UTC month/year start. */
export function periodRange(period: string, now: Date): { period: string; from: Date; to: Date } {
  const day = 86_400_000;
  const startOfDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  let from: Date;
  switch (period) {
    case 'today':
      from = startOfDay;
      break;
    case 'mtd':
      from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      break;
    case 'ytd':
      from = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
      break;
    default: {
      const n = Number.parseInt(period, 10) || 30;
      from = new Date(now.getTime() - n * day);
    }
  }
  return { period, from, to: now };
}

export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
