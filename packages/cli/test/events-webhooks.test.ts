/**
 * `travel webhooks` and `travel events` as processes of the built binary against the REAL server of the
 * global setup (its job runner delivers webhooks): a company admin registers a loopback endpoint (the
 * secret printed once), a booking's event reaches it signed with that secret, `events list` and `events
 * show` find the same event, `events resend` delivers it again, `roll-secret` signs with the new secret and
 * `disable` stops deliveries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TravelEvent, webhooks } from '@travel/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { inDays, loginDir, runJson } from './helpers/flow.ts';
import { type Received, type Receiver, startReceiver, until } from './helpers/listen.ts';

const serverUrl = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: serverUrl };
let configDir: string;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  if (agent) configDir = await loginDir(env, agent);
});
afterAll(() => receiver?.close());

interface Endpoint {
  id: number;
  url: string;
  event_types: string[];
  enabled: boolean;
  previous_secret_expires_at: string | null;
}

async function bookOne(): Promise<number> {
  const search = await runJson<{ offers: { offer_id: string }[] }>(
    ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(50), '--supplier', 'amadeus'],
    { env, configDir },
  );
  expect(search.code, search.stderr).toBe(0);
  const pax = join(configDir, 'pax.json');
  writeFileSync(
    pax,
    JSON.stringify([
      { type: 'ADT', first_name: 'Wen', last_name: 'Hook', gender: 'M', date_of_birth: '1979-05-06' },
    ]),
  );
  const r = await runJson<{ booking_id: number }>(
    [
      'book',
      '--offer',
      search.doc.offers[0]?.offer_id ?? '',
      '--passengers',
      pax,
      '--contact',
      'wen@example.org,+447700900123',
      '--new',
    ],
    { env, configDir },
  );
  expect(r.code, r.stderr).toBe(0);
  return r.doc.booking_id;
}

const deliveriesOf = (bookingId: number): Received[] =>
  receiver.received.filter((r) => (JSON.parse(r.body) as TravelEvent).resource.id === String(bookingId));

describe.skipIf(!agent)('travel webhooks and travel events (company admin)', () => {
  it('create → delivery signed with the printed secret → events list/show → resend → roll-secret → disable', async () => {
    // create: stdout is the secret alone (pipeable), the warning on stderr.
    const created = await runCli(
      ['webhooks', 'create', '--url', `${receiver.url}/travel`, '--events', 'booking.created,ticket.*'],
      { env, configDir },
    );
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]+$/);
    expect(created.stdout).toBe(`${secret}\n`);
    expect(created.stderr).toContain('Store this signing secret now: it is shown only once.');

    const listed = await runJson<{ data: Endpoint[] }>(['webhooks', 'list'], { env, configDir });
    expect(listed.code, listed.stderr).toBe(0);
    const ep = listed.doc.data.find((e) => e.url === `${receiver.url}/travel`);
    expect(ep).toMatchObject({
      enabled: true,
      event_types: ['booking.created', 'ticket.issued', 'ticket.voided', 'ticket.refunded'],
    });
    expect(listed.stdout).not.toContain(secret);
    if (!ep) throw new Error('unreachable');
    const human = await runCli(['webhooks', 'list'], { env, configDir });
    expect(human.stdout).toMatch(new RegExp(`^│? *${ep.id} .*enabled`, 'm'));

    // A booking's event is delivered by the job runner, signed with that secret.
    const bookingId = await bookOne();
    const first = await until(
      () => deliveriesOf(bookingId)[0],
      () => `the delivery of booking ${bookingId}'s event (received: ${receiver.received.length})`,
    );
    const event = await webhooks.constructEvent(
      first.body,
      first.headers['travel-signature'] as string,
      secret,
    );
    expect(event).toMatchObject({
      type: 'booking.created',
      resource: { type: 'booking', id: String(bookingId) },
    });
    expect(first.headers['travel-delivery-id']).toMatch(/^\d+$/);

    // events list (filtered, paged) and events show find the same event.
    let after: string | undefined;
    let found: TravelEvent | undefined;
    for (let page = 0; !found && page < 50; page++) {
      const r = await runJson<{ data: TravelEvent[]; has_more: boolean }>(
        [
          'events',
          'list',
          '--type',
          'booking.created',
          '--limit',
          '100',
          ...(after ? ['--starting-after', after] : []),
        ],
        { env, configDir },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.doc.data.every((e) => e.type === 'booking.created')).toBe(true);
      found = r.doc.data.find((e) => e.id === event.id);
      after = r.doc.data.at(-1)?.id;
      if (!r.doc.has_more) break;
    }
    expect(found).toEqual(event);
    const shown = await runJson<TravelEvent>(['events', 'show', event.id], { env, configDir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.doc).toEqual(event);
    const shownHuman = await runCli(['events', 'show', event.id], { env, configDir });
    expect(shownHuman.stdout).toContain(`booking ${bookingId} v1`);
    expect(shownHuman.stdout).toContain('data:');
    const missing = await runCli(['events', 'show', 'evt_doesnotexist0000'], { env, configDir });
    expect(missing.code).toBe(4);

    // resend: the same event arrives again, with the same id, signed again.
    const resent = await runJson<{ data: { endpoint_id: number; event_id: string; status: string }[] }>(
      ['events', 'resend', event.id, '--endpoint', String(ep.id)],
      { env, configDir },
    );
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.doc.data).toEqual([
      expect.objectContaining({ endpoint_id: ep.id, event_id: event.id, status: 'pending' }),
    ]);
    const second = await until(
      () => deliveriesOf(bookingId)[1],
      () => `the resent delivery (received for the booking: ${deliveriesOf(bookingId).length})`,
    );
    expect(
      (await webhooks.constructEvent(second.body, second.headers['travel-signature'] as string, secret)).id,
    ).toBe(event.id);

    // roll-secret --overlap 0: a new secret, the old one stops signing at once.
    const rolled = await runCli(['webhooks', 'roll-secret', String(ep.id), '--overlap', '0'], {
      env,
      configDir,
    });
    expect(rolled.code, rolled.stderr).toBe(0);
    const secret2 = rolled.stdout.trim();
    expect(secret2).toMatch(/^whsec_/);
    expect(secret2).not.toBe(secret);
    expect(rolled.stderr).toContain('The old secret no longer signs.');
    await runJson(['events', 'resend', event.id, '--endpoint', String(ep.id)], { env, configDir });
    const third = await until(
      () => deliveriesOf(bookingId)[2],
      () => 'the delivery after the roll',
    );
    const header = third.headers['travel-signature'] as string;
    expect((await webhooks.constructEvent(third.body, header, secret2)).id).toBe(event.id);
    await expect(webhooks.constructEvent(third.body, header, secret)).rejects.toThrow();

    // disable: listed as disabled, and nothing more is delivered to it.
    const disabled = await runJson<Endpoint>(['webhooks', 'disable', String(ep.id)], { env, configDir });
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.doc.enabled).toBe(false);
    const after2 = await runCli(['webhooks', 'list'], { env, configDir });
    expect(after2.stdout).toMatch(new RegExp(`^│? *${ep.id} .*disabled`, 'm'));
    const deliveries = await runJson<{
      data: { event_id: string; status: string; last_status: number | null }[];
    }>(['webhooks', 'deliveries', String(ep.id)], { env, configDir });
    expect(deliveries.doc.data.filter((d) => d.event_id === event.id)[0]).toMatchObject({
      status: 'succeeded',
      last_status: 200,
    });
  });

  it('usage errors exit 2 before any request; a missing endpoint exits 4', async () => {
    const noUrl = await runCli(['webhooks', 'create'], { env, configDir });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('missing --url');
    const badType = await runCli(['events', 'list', '--type', 'hotel.*'], { env, configDir });
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('no event type "hotel.*"');
    const badId = await runCli(['events', 'show', '42'], { env, configDir });
    expect(badId.code).toBe(2);
    const noEndpoint = await runCli(['webhooks', 'disable', '999999'], { env, configDir });
    expect(noEndpoint.code, noEndpoint.stderr).toBe(4);
  });
});
