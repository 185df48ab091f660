import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError, webhooks } from '../src/index.ts';

const secret = 'whsec_test_secret';
const body = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'booking.pending_settled',
  data: { status: 'confirmed' },
});
const now = 1_800_000_000_000;
const t = Math.floor(now / 1000);
const v1 = (s: string, at = t, b = body) => createHmac('sha256', s).update(`${at}.${b}`).digest('hex');

describe('webhooks.constructEvent', () => {
  it('returns the event for a valid signature', async () => {
    const e = await webhooks.constructEvent(body, `t=${t},v1=${v1(secret)}`, secret, { now });
    expect(e).toMatchObject({ id: 'evt_1', type: 'booking.pending_settled' });
  });

  it('accepts a rotation header (two v1) with either secret', async () => {
    const header = `t=${t},v1=${v1('whsec_new')},v1=${v1('whsec_old')}`;
    await expect(webhooks.constructEvent(body, header, 'whsec_old', { now })).resolves.toMatchObject({
      id: 'evt_1',
    });
    await expect(webhooks.constructEvent(body, header, 'whsec_new', { now })).resolves.toMatchObject({
      id: 'evt_1',
    });
    await expect(webhooks.constructEvent(body, header, 'whsec_other', { now })).rejects.toThrow(
      WebhookSignatureError,
    );
  });

  it('rejects a tampered body, a wrong secret, an old or future timestamp, a missing or malformed header', async () => {
    const header = `t=${t},v1=${v1(secret)}`;
    const tampered = body.replace('confirmed', 'cancelled');
    await expect(webhooks.constructEvent(tampered, header, secret, { now })).rejects.toThrow(
      /No signature matches/,
    );
    await expect(webhooks.constructEvent(body, header, 'whsec_wrong', { now })).rejects.toThrow(
      /No signature matches/,
    );
    const old = t - 301;
    await expect(
      webhooks.constructEvent(body, `t=${old},v1=${v1(secret, old)}`, secret, { now }),
    ).rejects.toThrow(/more than 300 s/);
    const future = t + 301;
    await expect(
      webhooks.constructEvent(body, `t=${future},v1=${v1(secret, future)}`, secret, { now }),
    ).rejects.toThrow(/more than 300 s/);
    // Inside the tolerance (and a wider one when asked).
    await expect(
      webhooks.constructEvent(body, `t=${old},v1=${v1(secret, old)}`, secret, { now, toleranceSeconds: 600 }),
    ).resolves.toMatchObject({ id: 'evt_1' });
    await expect(webhooks.constructEvent(body, undefined, secret, { now })).rejects.toThrow(
      /No Travel-Signature/,
    );
    await expect(webhooks.constructEvent(body, `v1=${v1(secret)}`, secret, { now })).rejects.toThrow(
      /malformed/,
    );
    // The signature of another timestamp does not verify this one.
    await expect(
      webhooks.constructEvent(body, `t=${t},v1=${v1(secret, t - 1)}`, secret, { now }),
    ).rejects.toThrow(WebhookSignatureError);
  });
});
