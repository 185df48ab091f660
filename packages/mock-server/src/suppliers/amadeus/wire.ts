/**
 * Amadeus for Developers wire conventions shared by every handler: `application/vnd.amadeus+json` bodies,
 * `{ data, dictionaries, meta }` envelopes and `{ errors: [{ status, code, title, detail, source }] }`
 * error bodies. Handlers throw `AmadeusError`; the route wrapper renders it.
 */

export type Wire = Record<string, unknown>;

/** The official Node client only parses bodies whose content-type is exactly one of its JSON types. */
export const CONTENT_TYPE = 'application/vnd.amadeus+json';

export class AmadeusError extends Error {
  readonly status: number;
  readonly code: number;
  readonly title: string;
  readonly source: Wire | undefined;
  constructor(status: number, code: number, title: string, detail: string, source?: Wire) {
    super(detail);
    this.status = status;
    this.code = code;
    this.title = title;
    this.source = source;
  }
}

/** Amadeus' "MANDATORY DATA MISSING" (32171) with a JSON pointer to the missing field. */
export const missing = (pointer: string): AmadeusError =>
  new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', `${pointer} is mandatory`, { pointer });

/** Amadeus' generic "INVALID DATA RECEIVED" (4926). */
export const invalid = (pointer: string, detail: string): AmadeusError =>
  new AmadeusError(400, 4926, 'INVALID DATA RECEIVED', detail, { pointer });

export const invalidParam = (parameter: string, detail: string): AmadeusError =>
  new AmadeusError(400, 477, 'INVALID FORMAT', detail, { parameter });

export const notFound = (parameter: string, detail: string): AmadeusError =>
  new AmadeusError(404, 1797, 'NOT FOUND', detail, { parameter });

export const systemError = (): AmadeusError =>
  new AmadeusError(
    500,
    141,
    'SYSTEM ERROR HAS OCCURRED',
    'An internal error occurred, please contact your administrator',
  );

export function json(body: unknown, status = 200): Response {
  if (status === 204) return new Response(null, { status });
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': CONTENT_TYPE } });
}

export function errorResponse(e: AmadeusError): Response {
  const issue: Wire = { status: e.status, code: e.code, title: e.title, detail: e.message };
  if (e.source) issue.source = e.source;
  return json({ errors: [issue] }, e.status);
}

/** Reads a JSON body; Amadeus answers 400 INVALID FORMAT to anything that is not JSON. */
export async function readJson(request: Request): Promise<Wire> {
  const text = await request.text();
  if (!text) throw missing('/data');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Wire;
  } catch {
    // fall through to the Amadeus error below
  }
  throw new AmadeusError(400, 477, 'INVALID FORMAT', 'The request body is not valid JSON');
}

export function asObject(v: unknown): Wire | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Wire) : undefined;
}

export function asArray(v: unknown): Wire[] {
  return Array.isArray(v) ? (v.filter((x) => asObject(x)) as Wire[]) : [];
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Amadeus money is a decimal string with two places. */
export const money = (minor: number): string => (minor / 100).toFixed(2);
export const toMinor = (amount: unknown): number => Math.round(Number(amount ?? 0) * 100);

/** ISO 8601 duration as Amadeus writes it: PT9H10M. */
export function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h ? `${h}H` : ''}${m || !h ? `${m}M` : ''}`;
}
