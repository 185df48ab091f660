/** How an event reads on a terminal: `travel listen` lines, `travel events list` rows, `events show`. */
import type { TravelEvent } from '@travel/sdk';
import type { ChalkInstance } from 'chalk';

/** `2026-11-29 01:40:12` (UTC, as the server stamps it). */
export const eventTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');

/** `booking 42 v3`: what changed, and its version (a receiver drops versions it has already passed). */
export const eventResource = (e: TravelEvent): string =>
  `${e.resource.type} ${e.resource.id} v${e.resource.version}`;

/** One `travel listen` line: time, type, resource, id. */
export function eventLine(e: TravelEvent, c: ChalkInstance): string {
  return `${eventTime(e.created_at)}  ${c.cyan(e.type.padEnd(26))} ${eventResource(e).padEnd(22)} ${c.dim(e.id)}`;
}

/** What caused it: the request (its X-Request-Id) or the background job. */
export const eventCause = (e: TravelEvent): string =>
  e.request_id ? `request ${e.request_id}` : e.job_id ? `job ${e.job_id}` : '-';
