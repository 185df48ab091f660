import { shiftLocal, TRIGGERED_SHIFT_MINUTES } from '../../shared/schedule.ts';
import type { makeRouter } from './http.ts';
import { dataResponse, invalid, invalidState, iso, notFound, readData } from './http.ts';
import type { DuffelState, OrderRecord, Wire } from './state.ts';

/**
 * Airline-initiated changes, as Duffel publishes them: the airline moves a booked flight, Duffel records
 * an `airline_initiated_change` on the order (`removed`: the slices as they were, `added`: the slices as
 * they are now) and updates the order's `slices`; the seller accepts it
 * (`POST /air/airline_initiated_changes/{id}/actions/accept`) or reports what it did (`PATCH …/{id}`
 * with `action_taken`). `GET /air/airline_initiated_changes?order_id=` lists an order's changes.
 *
 * Segment ids are kept through a change (Duffel says they *may* change): seats, services and ticket
 * coupons sold against them stay attached.
 */

/** What the airline does to the order: move one slice by `minutes`, optionally under a new flight number. */
export interface ScheduleChangeSpec {
  minutes: number;
  /** Which slice moves (default 0, the first). */
  sliceIndex?: number;
  /** The moved slice's first segment flies under this marketing flight number. */
  flightNumber?: string;
}

/** The SCHEDULECHANGE trigger's change (shared/schedule.ts). */
const TRIGGERED_CHANGE: ScheduleChangeSpec = { minutes: TRIGGERED_SHIFT_MINUTES };

/** Applies `spec` to the order: returns the recorded change (also pushed onto the order). */
export function applyScheduleChange(state: DuffelState, rec: OrderRecord, spec: ScheduleChangeSpec): Wire {
  const order = rec.order;
  const i = spec.sliceIndex ?? 0;
  const slices = order.slices as Wire[];
  const before = slices[i];
  if (!before) throw new Error(`order ${order.id} has no slice ${i}`);
  const after: Wire = structuredClone(before);
  for (const [n, seg] of (after.segments as Wire[]).entries()) {
    seg.departing_at = shiftLocal(seg.departing_at, spec.minutes);
    seg.arriving_at = shiftLocal(seg.arriving_at, spec.minutes);
    if (n === 0 && spec.flightNumber) seg.marketing_carrier_flight_number = spec.flightNumber;
  }
  const now = iso(state.now());
  const change: Wire = {
    id: state.nextId('aic'),
    order_id: order.id,
    removed: [structuredClone(before)],
    added: [after],
    action_taken: null,
    action_taken_at: null,
    available_actions: ['accept', 'cancel', 'change', 'update'],
    travel_agent_ticket: null,
    created_at: now,
    updated_at: now,
  };
  slices[i] = after;
  order.airline_initiated_changes = [...((order.airline_initiated_changes as Wire[]) ?? []), change];
  return change;
}

/** A SCHEDULECHANGE order's airline moves its flight once, seen at the first read after the booking. */
export function settleTriggeredChange(state: DuffelState, rec: OrderRecord): void {
  if (!rec.scheduleChangeTriggered) return;
  rec.scheduleChangeTriggered = false;
  applyScheduleChange(state, rec, TRIGGERED_CHANGE);
}

function findChange(state: DuffelState, id: string): { rec: OrderRecord; change: Wire } {
  for (const rec of state.orders.values()) {
    const change = ((rec.order.airline_initiated_changes as Wire[]) ?? []).find((c) => c.id === id);
    if (change) return { rec, change };
  }
  throw notFound('airline-initiated change');
}

const ACTIONS = ['accepted', 'cancelled', 'changed'] as const;

function takeAction(state: DuffelState, change: Wire, action: (typeof ACTIONS)[number]): Wire {
  if (change.action_taken !== null) {
    throw invalidState(
      'already_actioned',
      'Already actioned',
      `This airline-initiated change was already ${change.action_taken}`,
    );
  }
  const now = iso(state.now());
  change.action_taken = action;
  change.action_taken_at = now;
  change.updated_at = now;
  change.available_actions = [];
  return change;
}

export function scheduleChangeRoutes(state: DuffelState, r: ReturnType<typeof makeRouter>) {
  return [
    ...r.get('/air/airline_initiated_changes', ({ url }) => {
      const orderId = url.searchParams.get('order_id');
      const recs = orderId ? [state.orders.get(orderId)].filter((x) => x !== undefined) : [];
      if (orderId && recs.length === 0) throw notFound('order');
      for (const rec of recs) settleTriggeredChange(state, rec);
      const all = orderId
        ? recs.flatMap((rec) => (rec.order.airline_initiated_changes as Wire[]) ?? [])
        : [...state.orders.values()].flatMap((rec) => (rec.order.airline_initiated_changes as Wire[]) ?? []);
      return dataResponse(state, all);
    }),
    ...r.post('/air/airline_initiated_changes/:id/actions/accept', ({ params }) => {
      const { change } = findChange(state, String(params.id));
      if (!(change.available_actions as string[]).includes('accept') && change.action_taken === null)
        throw invalidState('unsupported_action', 'Unsupported action', 'This change cannot be accepted');
      return dataResponse(state, takeAction(state, change, 'accepted'));
    }),
    ...r.patch('/air/airline_initiated_changes/:id', async ({ params, request }) => {
      const { change } = findChange(state, String(params.id));
      const data = await readData(request);
      const action = ACTIONS.find((a) => a === data.action_taken);
      if (!action) throw invalid('action_taken', 'action_taken must be accepted, cancelled or changed');
      return dataResponse(state, takeAction(state, change, action));
    }),
  ];
}
