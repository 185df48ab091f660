/**
 * The deprecation policy (docs/api-versioning.md) on the wire: an operation the contract marks
 * `deprecated: true` answers with `Deprecation` (RFC 9745: `@<epoch seconds>` of its `x-deprecated-at`,
 * which is then required) and, when `x-sunset` names one, `Sunset` (RFC 8594, an HTTP-date),
 * so a client learns it from any answer, not only from reading the contract.
 */
import type { Step } from '../compose.ts';
import type { Operation } from '../contract.ts';

/** The step for `op`, or undefined when it is not deprecated. Throws at start on a malformed date. */
export function deprecationStep(op: Operation): Step | undefined {
  if (op.raw.deprecated !== true) return undefined;
  const at = Date.parse(String(op.raw['x-deprecated-at'] ?? ''));
  if (Number.isNaN(at)) throw new Error(`${op.operationId}: deprecated without a valid x-deprecated-at`);
  const headers: Record<string, string> = { deprecation: `@${Math.floor(at / 1000)}` };
  const sunset = op.raw['x-sunset'];
  if (sunset !== undefined) {
    const t = Date.parse(String(sunset));
    if (Number.isNaN(t)) throw new Error(`${op.operationId}: x-sunset is not a date`);
    headers.sunset = new Date(t).toUTCString();
  }
  return (ex) => {
    Object.assign(ex.responseHeaders, headers);
  };
}
