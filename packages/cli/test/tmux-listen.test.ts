/**
 * `travel listen --forward-to` in a real terminal (tmux), as a developer runs it beside their app: the
 * banner names the secret, a PENDING booking's `booking.pending_settled` prints and is forwarded to a local
 * receiver (answered 200, signed for the SDK's constructEvent), and Ctrl-C ends it with exit 130.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhooks } from '@travel/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { inDays, loginDir, runJson } from './helpers/flow.ts';
import { type Receiver, startReceiver, until } from './helpers/listen.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

const serverUrl = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: serverUrl };
let receiver: Receiver;
let session: TmuxSession | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterEach(() => session?.kill());
afterAll(() => receiver?.close());

describe.skipIf(!hasTmux || !agent)('travel listen in a terminal', () => {
  it('forwards a PENDING booking’s booking.pending_settled to a local server; Ctrl-C exits 130', async () => {
    if (!agent) return;
    const configDir = await loginDir(env, agent);
    const secret = (await runCli(['listen', '--print-secret'], { env, configDir })).stdout.trim();
    session = startTmux(
      ['listen', '--events', 'booking.pending_settled', '--forward-to', `${receiver.url}/webhooks`],
      { ...env, TRAVEL_CONFIG_DIR: configDir, HOME: configDir, CI: '', TERM: 'xterm-256color' },
      140,
    );
    // The forwarding line comes after "Ready.": wait for it, so both are on the screen.
    const banner = await session.waitFor(`signed with ${secret}`);
    expect(banner).toContain('Ready. Listening to booking.pending_settled');
    expect(banner).toContain(`Forwarding to ${receiver.url}/webhooks, signed with ${secret}`);

    const search = await runJson<{ offers: { offer_id: string }[] }>(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(47), '--supplier', 'amadeus'],
      { env, configDir },
    );
    const pax = join(configDir, 'pax.json');
    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Tom', last_name: 'PENDING', gender: 'M', date_of_birth: '1988-08-08' },
      ]),
    );
    const booked = await runJson<{ booking_id: number; outcome: string }>(
      [
        'book',
        '--offer',
        search.doc.offers[0]?.offer_id ?? '',
        '--passengers',
        pax,
        '--contact',
        'tom@example.org,+447700900123',
        '--wait',
        '0',
      ],
      { env, configDir },
    );
    expect(booked.doc.outcome, booked.stderr).toBe('pending');
    const id = booked.doc.booking_id;

    const screen = await session.waitFor(
      new RegExp(
        `booking\\.pending_settled +booking ${id} v\\d+ +(evt_\\S+)[\\s\\S]*<-- \\[200\\] POST ${receiver.url}/webhooks`,
      ),
      60_000,
    );
    const eventId = new RegExp(`booking ${id} v\\d+ +(evt_\\S+)`).exec(screen)?.[1];
    const got = await until(
      () => receiver.received.find((r) => r.headers['travel-event-id'] === eventId),
      () => `${eventId} at the receiver`,
    );
    const event = await webhooks.constructEvent(got.body, got.headers['travel-signature'] as string, secret);
    expect(event).toMatchObject({
      id: eventId,
      type: 'booking.pending_settled',
      resource: { id: String(id) },
    });

    session.send('C-c');
    expect(await session.waitFor('[exit 130]')).toContain('cancelled (Ctrl-C)');
  });
});
