/**
 * Airline schedule changes in the CLI (issue 30): `booking show` lists a pending change old -> new,
 * `booking accept-change` accepts it, and the e-ticket receipt then shows the new times with a note. Run
 * functions against a fake SDK, then the built binary against the real server (the SCHEDULECHANGE trigger).
 */
import type { ScheduleChange } from '@travel/sdk';
import { describe, expect, inject, it, vi } from 'vitest';
import { runBookingAcceptChange, runBookingShow } from '../src/commands/booking.ts';
import { eTicketDocument } from '../src/documents/e-ticket.ts';
import { documentLines } from '../src/documents/model.ts';
import { runCli } from './helpers/cli.ts';
import { booking } from './helpers/data.ts';
import { fakeWorld } from './helpers/fakes.ts';
import { loginDir, runJson, ticketedFlight } from './helpers/flow.ts';

const segment = (departure: string, arrival: string, flight = '117') => ({
  segment_id: 's1',
  marketing_carrier: 'BA',
  operating_carrier: 'BA',
  flight_number: flight,
  origin: 'LHR',
  destination: 'JFK',
  departure_at: departure,
  arrival_at: arrival,
  duration_minutes: 475,
  cabin: 'Economy' as const,
  booking_class: 'Y',
  aircraft: null,
});
const booked = segment('2026-12-20T09:35:00', '2026-12-20T12:30:00');
const moved = segment('2026-12-20T11:10:00', '2026-12-20T14:05:00', '1117');
const change = (status: ScheduleChange['status']): ScheduleChange => ({
  id: 'sc_abc',
  booking_id: 42,
  status,
  supplier: 'duffel',
  supplier_change_id: 'aic_1',
  old_segments: [booked],
  new_segments: [moved],
  detected_at: '2026-11-29T01:00:00.000Z',
  accepted_at: status === 'accepted' ? '2026-11-29T02:00:00.000Z' : null,
  accepted_by_user_id: status === 'accepted' ? 'u1' : null,
});

describe('schedule changes: run functions', () => {
  it('booking show prints the pending change old -> new and how to accept it; --json carries it', async () => {
    const list = vi.fn(async () => ({ data: [change('pending')] }));
    const refresh = vi.fn(async () => ({ data: [change('pending')] }));
    const get = vi.fn(async () => booking('ticketed', { flights: [booked] }));
    const sdk = { bookings: { get, scheduleChanges: { list, refresh } } } as never;
    const human = fakeWorld({ sdk });
    await runBookingShow('42', { refresh: false }, human.ctx);
    const text = human.io.stdout.join('\n');
    expect(text).toContain('BA117  LHR 2026-12-20T09:35:00 -> JFK 2026-12-20T12:30:00');
    expect(text).toContain('SCHEDULE CHANGE pending (sc_abc)');
    expect(text).toContain(
      'BA117 -> BA1117  LHR-JFK  departs 2026-12-20 09:35 -> 2026-12-20 11:10  arrives 2026-12-20 12:30 -> 2026-12-20 14:05',
    );
    expect(text).toContain('travel booking accept-change 42 sc_abc');
    expect(refresh).not.toHaveBeenCalled();

    const json = fakeWorld({ sdk, globals: { json: true } });
    await runBookingShow('42', { refresh: true }, json.ctx);
    expect(refresh).toHaveBeenCalledWith('42');
    const doc = JSON.parse(json.io.stdout.join(''));
    expect(doc.booking_id).toBe(42);
    expect(doc.schedule_changes).toEqual([change('pending')]);
  });

  it('a failed re-read warns and still shows the booking and its recorded changes', async () => {
    const refresh = vi.fn(async () => {
      throw new Error('The supplier refused the request or could not complete it.');
    });
    const list = vi.fn(async () => ({ data: [change('accepted')] }));
    const get = vi.fn(async () => booking('ticketed', { flights: [moved] }));
    const { ctx, io } = fakeWorld({
      sdk: { bookings: { get, scheduleChanges: { list, refresh } } } as never,
    });
    await runBookingShow('42', { refresh: true }, ctx);
    expect(io.stderr.join('\n')).toContain("could not re-read the airline's schedule");
    const text = io.stdout.join('\n');
    expect(text).toContain('schedule change accepted 2026-11-29 02:00 UTC (sc_abc):');
    expect(text).not.toContain('SCHEDULE CHANGE pending');
  });

  it('accept-change accepts and prints the accepted change', async () => {
    const accept = vi.fn(async () => change('accepted'));
    const { ctx, io } = fakeWorld({ sdk: { bookings: { scheduleChanges: { accept } } } as never });
    await runBookingAcceptChange('X7KQ2M', 'sc_abc', ctx);
    expect(accept).toHaveBeenCalledWith('X7KQ2M', 'sc_abc');
    expect(io.stdout.join('\n')).toContain('departs 2026-12-20 09:35 -> 2026-12-20 11:10');
  });

  it('the receipt shows the booking’s new times and notes the accepted change', () => {
    const doc = eTicketDocument({
      documents: { pnr: 'X7KQ2M', tickets: [] } as never,
      booking: booking('ticketed', { flights: [moved] }),
      baggage: null,
      airports: new Map(),
      scheduleChanges: [change('accepted')],
    });
    const text = documentLines(doc, 200).join('\n');
    expect(text).toContain('BA 1117  LHR   Sun, 20 Dec 2026, 11:10  JFK  Sun, 20 Dec 2026, 14:05');
    expect(text).toContain(
      'Schedule changed by the airline (accepted 2026-11-29 02:00 UTC); the itinerary shows the new times. As booked: BA117 LHR departing 2026-12-20 09:35.',
    );
  });
});

const url = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };

describe.skipIf(!url)('schedule changes: the binary against the real server', () => {
  it('SCHEDULECHANGE: show --refresh lists the change, accept-change takes it, the receipt shows it', async () => {
    if (!agent) throw new Error('the sandbox agent was not seeded');
    const dir = await loginDir(env, agent);
    const flight = await ticketedFlight(env, dir, 'amadeus', {
      days: 50,
      reference: `sc-${Date.now()}`,
      lastName: 'SCHEDULECHANGE',
    });
    const id = String(flight.bookingId);
    const before = await runJson<{ flights: { departure_at: string }[] }>(['booking', 'show', id], {
      env,
      configDir: dir,
    });
    expect(before.code, before.stderr).toBe(0);
    const bookedAt = before.doc.flights[0]?.departure_at ?? '';

    const shown = await runCli(['booking', 'show', id, '--refresh'], { env, configDir: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('SCHEDULE CHANGE pending');
    const changeId = /accept-change \S+ (sc_\S+)/.exec(shown.stdout)?.[1];
    expect(changeId, shown.stdout).toBeDefined();

    const accepted = await runJson<{ status: string; new_segments: { departure_at: string }[] }>(
      ['booking', 'accept-change', id, String(changeId)],
      { env, configDir: dir },
    );
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.doc.status).toBe('accepted');
    const newAt = accepted.doc.new_segments[0]?.departure_at ?? '';
    expect(Date.parse(`${newAt}Z`) - Date.parse(`${bookedAt}Z`)).toBe(95 * 60_000);

    const after = await runJson<{ flights: { departure_at: string }[] }>(['booking', 'show', id], {
      env,
      configDir: dir,
    });
    expect(after.doc.flights[0]?.departure_at).toBe(newAt);
    const receipt = await runCli(['ticket', 'document', id], { env, configDir: dir });
    expect(receipt.code, receipt.stderr).toBe(0);
    expect(receipt.stdout).toContain('Schedule changed by the airline');
  }, 180_000);
});
