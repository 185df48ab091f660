/**
 * The supplier/stage error log (table `error_logs`). Any domain may call `recordError` when a pipeline
 * stage fails; messages are scrubbed of anything that looks like a credential before they are stored.
 */
import type { components } from '@travel/contract';
import type { Db } from '../../storage/schema.ts';
import { accountsDb } from '../accounts/index.ts';

export type ErrorStage = components['schemas']['ErrorStage'];

export interface ErrorRecord {
  stage: ErrorStage;
  provider?: string | null;
  code: string;
  message: string;
  supplierCode?: string | null;
  requestId?: string | null;
  operationId?: string | null;
  bookingId?: number | null;
}

const SECRET = /((?:password|passwd|secret|token|api[_-]?key|authorization|bearer)["'\s:=]+)([^\s"',&]+)/gi;

/** Redacts `password=…`, `token: …`, `Bearer …` and similar, and caps the length. */
export const scrub = (msg: string): string => msg.replace(SECRET, '$1[redacted]').slice(0, 2000);

export async function recordError(db: Db, e: ErrorRecord): Promise<void> {
  await accountsDb(db)
    .insertInto('error_logs')
    .values({
      stage: e.stage,
      provider: e.provider ?? null,
      code: e.code,
      message: scrub(e.message),
      supplier_code: e.supplierCode ?? null,
      request_id: e.requestId ?? null,
      operation_id: e.operationId ?? null,
      booking_id: e.bookingId ?? null,
    })
    .execute();
}
