/**
 * Phase marks of the search path on a diagnostics channel (`travel:phase`): which search, which phase,
 * when (`performance.timeOrigin + performance.now()`, ms: one time scale across processes). The benches
 * subscribe (`bench/phase-hook.ts`, loaded with `--import`) to print where the time between a supplier's
 * answer and the client's goes. Like undici's and node:http's own channels, a mark costs one
 * `hasSubscribers` check when nobody listens, which is always outside the benches.
 */
import { channel } from 'node:diagnostics_channel';

export type Phase =
  /** A supplier's answer is parsed and mapped (`detail`: the supplier). */
  | 'answer'
  /** A write of the search's log is sent (`detail`: how many suppliers it completes). */
  | 'sent'
  /** That write committed (its result is back in this process). */
  | 'committed'
  /** Its events are handed to this process's readers. */
  | 'handed'
  /** The search's feed has written the new events to its local streams. */
  | 'streamed'
  /** The search session is recorded (the 202 can go). */
  | 'recorded';

export interface PhaseMark {
  search: string;
  phase: Phase;
  detail?: string | number;
  at: number;
}

const marks = channel('travel:phase');

export function mark(search: string, phase: Phase, detail?: string | number): void {
  if (!marks.hasSubscribers) return;
  const m: PhaseMark = { search, phase, at: performance.timeOrigin + performance.now() };
  if (detail !== undefined) m.detail = detail;
  marks.publish(m);
}
