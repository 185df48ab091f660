/**
 * `travel listen` as a process of the built binary against the REAL server of the global setup (its job
 * runner polls, so a PENDING booking settles by itself): the events of a booking print as lines; with
 * --forward-to a PENDING booking's `booking.pending_settled` reaches a local receiver signed so that the
 * SDK's `webhooks.constructEvent` accepts it with the secret `listen --print-secret` prints; Ctrl-C exits 130.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webhooks } from '@travel/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { inDays, loginDir, runJson } from './helpers/flow.ts';
import { type Receiver, startListen, startReceiver, until } from './helpers/listen.ts';

const serverUrl = inject('serverUrl');
const agent = inject('agent');
const env = { TRAVEL_BASE_URL: serverUrl };
let configDir: string;
let offerId: string;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  if (!agent) return;
  configDir = await loginDir(env, agent);
  const search = await runJson<{ offers: { offer_id: string; supplier: string }[] }>(
    ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(45), '--supplier', 'amadeus'],
    { env, configDir },
  );
  expect(search.code, search.stderr).toBe(0);
  offerId = search.doc.offers[0]?.offer_id ?? '';
  expect(offerId).not.toBe('');
});
afterAll(() => receiver?.close());

/** Books the searched amadeus offer (a new booking each time); last name PENDING makes the supplier answer 502. */
async function book(lastName: string): Promise<number> {
  const pax = join(configDir, `pax-${lastName}.json`);
  writeFileSync(
    pax,
    JSON.stringify([
      { type: 'ADT', first_name: 'Lin', last_name: lastName, gender: 'F', date_of_birth: '1990-02-03' },
    ]),
  );
  const r = await runJson<{ booking_id: number; outcome: string }>(
    [
      'book',
      '--offer',
      offerId,
      '--passengers',
      pax,
      '--contact',
      'lin@example.org,+447700900123',
      '--new',
      '--wait',
      '0',
    ],
    { env, configDir },
  );
  expect(r.doc?.booking_id, r.stderr).toBeGreaterThan(0);
  return r.doc.booking_id;
}

describe.skipIf(!agent)('travel listen', () => {
  it('prints one line per event of a booking made while it listens; Ctrl-C exits 130', async () => {
    const listen = startListen(['--events', 'booking.*'], env, configDir);
    await until(
      () => listen.stderr().includes('(Ctrl-C to quit).'),
      () => `"Ready." on stderr:\n${listen.stderr()}`,
    );
    expect(listen.stderr()).toContain(`Ready. Listening to booking.* on ${serverUrl} (Ctrl-C to quit).`);
    const id = await book('Listener');
    const line = await until(
      () =>
        listen
          .stdout()
          .split('\n')
          .find((l) => l.includes(`booking ${id} v`)),
      () => `a line for booking ${id} on stdout:\n${listen.stdout()}\nstderr:\n${listen.stderr()}`,
    );
    expect(line).toMatch(
      new RegExp(
        `^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  booking\\.created +booking ${id} v1 +evt_[A-Za-z0-9_-]+$`,
      ),
    );
    // Only booking.* was asked for: no payment or hotel line ever.
    for (const l of listen.stdout().trim().split('\n')) expect(l).toMatch(/ booking\.[a-z_]+ /);
    expect(await listen.interrupt()).toBe(130);
    expect(listen.stderr()).toContain('cancelled (Ctrl-C)');
  });

  it('--forward-to: a PENDING booking settles and its booking.pending_settled arrives signed for constructEvent', async () => {
    const printed = await runCli(['listen', '--print-secret'], { env, configDir });
    expect(printed.code, printed.stderr).toBe(0);
    const secret = printed.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    // The same secret on every run of this profile (a handler's configuration keeps working).
    expect((await runCli(['listen', '--print-secret'], { env, configDir })).stdout.trim()).toBe(secret);

    const listen = startListen(
      ['--events', 'booking.pending_settled', '--forward-to', `${receiver.url}/hooks`],
      env,
      configDir,
    );
    // The banner's lines may arrive in separate chunks: wait for the forwarding line too.
    await until(
      () => listen.stderr().includes('Ready.') && listen.stderr().includes('Forwarding to'),
      () => `"Ready." and "Forwarding to" on stderr:\n${listen.stderr()}`,
    );
    expect(listen.stderr()).toContain(`signed with ${secret}`);
    const id = await book('PENDING');
    const got = await until(
      () =>
        receiver.received.find((r) => {
          const e = JSON.parse(r.body) as { resource: { id: string } };
          return e.resource.id === String(id);
        }),
      () =>
        `booking ${id}'s event at the receiver; listen stdout:\n${listen.stdout()}\nstderr:\n${listen.stderr()}`,
      60_000,
    );
    expect(got.path).toBe('/hooks');
    expect(got.headers['content-type']).toBe('application/json');
    const header = got.headers['travel-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = await webhooks.constructEvent(got.body, header, secret);
    expect(event).toMatchObject({
      type: 'booking.pending_settled',
      resource: { type: 'booking', id: String(id) },
    });
    expect(got.headers['travel-event-id']).toBe(event.id);
    // What a handler must refuse: another secret, a changed body.
    await expect(webhooks.constructEvent(got.body, header, 'whsec_other')).rejects.toThrow(
      'No signature matches',
    );
    await expect(
      webhooks.constructEvent(got.body.replace('pending_settled', 'confirmed'), header, secret),
    ).rejects.toThrow();
    // The terminal shows the event and the status the endpoint answered.
    await until(
      () => listen.stdout().includes(`<-- [200] POST ${receiver.url}/hooks [${event.id}]`),
      () => `the forward line on stdout:\n${listen.stdout()}`,
    );
    expect(listen.stdout()).toContain(`booking.pending_settled`);
    expect(await listen.interrupt()).toBe(130);
  });

  it('--json prints each event as one JSON line; a bad --events is a usage error before any request', async () => {
    const bad = await runCli(['listen', '--events', 'booking.creatd'], { env, configDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no event type "booking.creatd"');

    const listen = startListen(['--events', 'booking.created', '--json'], env, configDir);
    await until(
      () => listen.stderr().includes('(Ctrl-C to quit).'),
      () => `"Ready." on stderr:\n${listen.stderr()}`,
    );
    const id = await book('Jsonline');
    const line = await until(
      () =>
        listen
          .stdout()
          .split('\n')
          .find((l) => l.includes(`"id":"${id}"`)),
      () => `a JSON line for booking ${id}:\n${listen.stdout()}`,
    );
    const event = JSON.parse(line);
    expect(event).toMatchObject({
      object: 'event',
      type: 'booking.created',
      resource: { id: String(id), version: 1 },
    });
    expect(event.data.booking_id).toBe(id);
    expect(await listen.interrupt()).toBe(130);
  });
});
