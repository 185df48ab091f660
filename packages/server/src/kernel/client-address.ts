/**
 * The real client address behind reverse proxies (TRUST_PROXY, issue 28). Rate limits, audit rows and
 * logs all read `ctx.ip`, which the kernel sets once per request from `resolveClientAddress`; anything
 * else that needs the address (the access log) reads it through `clientAddress(ctx)`.
 *
 * The peer (the socket's remote address) is the only address nobody can forge. A forwarded header is
 * read only as far as the hops that appended to it are trusted by configuration:
 * - `TRUST_PROXY` unset (default): headers are ignored; the client is the peer;
 * - `TRUST_PROXY=<n>` (hops): n proxies stand in front of every request; the client is the n-th address
 *   from the right of [header addresses…, peer] (what the outermost trusted proxy saw), whatever a
 *   client prepended to the header itself;
 * - `TRUST_PROXY=<address or CIDR>,…` (e.g. `10.0.0.0/8,127.0.0.1,fd00::/8`): from the peer leftwards
 *   through the header, every address in the list is a trusted proxy; the client is the first that is
 *   not. A peer outside the list is itself the client, so an untrusted client's header is ignored.
 * `TRUST_PROXY_HEADER` names the header the proxies write: `x-forwarded-for` (default) or `forwarded`
 * (RFC 7239, its `for=` parameters); the other one is never read, so a client cannot slip in the header
 * the proxy does not overwrite.
 */
import { type BlockList, isIP } from 'node:net';
import { type ForwardHeader, normalizeAddress, type TrustProxy } from '../internal/trust-proxy.ts';
import type { RequestContext } from './types.ts';

/** The addresses a forwarded header lists, left (original client) to right (nearest proxy). */
function forwarded(header: ForwardHeader, value: string | null): (string | undefined)[] {
  if (!value) return [];
  if (header === 'x-forwarded-for') return value.split(',').map(normalizeAddress);
  const out: (string | undefined)[] = [];
  for (const element of value.split(',')) {
    const pair = element
      .split(';')
      .map((p) => p.trim())
      .find((p) => p.toLowerCase().startsWith('for='));
    out.push(pair ? normalizeAddress(pair.slice(4)) : undefined);
  }
  return out;
}

const trusted = (list: BlockList, a: string) => list.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');

/**
 * The client address of a request that came from `peer`. Walks from the peer leftwards through the
 * header while the current hop is trusted; an unreadable entry ends the walk at the hop that wrote it.
 */
export function resolveClientAddress(
  peer: string,
  headers: { get(name: string): string | null },
  trust: TrustProxy,
): string {
  if (trust.kind === 'none') return peer;
  const self = normalizeAddress(peer) ?? peer;
  const chain = forwarded(trust.header, headers.get(trust.header));
  if (trust.kind === 'hops') {
    let client = self;
    for (let i = 0; i < trust.hops && chain.length > i; i++) {
      const next = chain[chain.length - 1 - i];
      if (next === undefined) break;
      client = next;
    }
    return client;
  }
  let client = self;
  if (!isIP(client) || !trusted(trust.list, client)) return client;
  for (let i = chain.length - 1; i >= 0; i--) {
    const next = chain[i];
    if (next === undefined) break;
    client = next;
    if (!trusted(trust.list, next)) break;
  }
  return client;
}

/** The request's client address (after TRUST_PROXY), for logs and anything else outside the kernel. */
export function clientAddress(ctx: Pick<RequestContext, 'ip'>): string {
  return ctx.ip;
}
