/**
 * Ancillary (TSM) states, openapi `AncillaryStatus`: purchase holds (held), EMD issuance issues,
 * cancel voids an issued EMD or removes an unissued service. Cancelled or refunded items are skipped.
 */
import { ANCILLARY_STATUSES, type AncillaryStatus } from '@travel/contract';

export { ANCILLARY_STATUSES, type AncillaryStatus };
export type AncillaryEvent = 'issue' | 'cancel';

export const ANCILLARY_TRANSITIONS: Record<
  AncillaryEvent,
  Partial<Record<AncillaryStatus, AncillaryStatus>>
> = {
  issue: { held: 'issued' },
  cancel: { issued: 'voided', held: 'removed', failed: 'removed' },
};

/** The next status, or null when the item is not moved by this event (skipped). */
export function nextAncillaryStatus(from: string, event: AncillaryEvent): AncillaryStatus | null {
  return ANCILLARY_TRANSITIONS[event][from as AncillaryStatus] ?? null;
}
