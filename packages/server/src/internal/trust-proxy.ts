/**
 * TRUST_PROXY and TRUST_PROXY_HEADER, read once at start (the kernel's `client-address.ts` applies them):
 * a hop count, or a list of trusted proxy addresses and CIDRs, and the header those proxies write.
 */
import { BlockList, isIP } from 'node:net';

export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number; header: ForwardHeader }
  | { kind: 'list'; list: BlockList; header: ForwardHeader };

export type ForwardHeader = 'x-forwarded-for' | 'forwarded';

export const NO_PROXY: TrustProxy = { kind: 'none' };

/** TRUST_PROXY and TRUST_PROXY_HEADER; throws on a value it cannot read (the server refuses to start). */
export function parseTrustProxy(value: string | undefined, headerName?: string): TrustProxy {
  const raw = (value ?? '').trim();
  const header = (headerName ?? 'x-forwarded-for').trim().toLowerCase();
  if (header !== 'x-forwarded-for' && header !== 'forwarded')
    throw new Error(`TRUST_PROXY_HEADER must be x-forwarded-for or forwarded, got "${headerName}"`);
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return NO_PROXY;
  if (/^\d+$/.test(raw)) return { kind: 'hops', hops: Number(raw), header };
  const list = new BlockList();
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr = '', bits] = entry.split('/');
    const family = isIP(addr);
    if (family === 0)
      throw new Error(`TRUST_PROXY: "${entry}" is neither a hop count nor an address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(addr, type);
    else {
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128))
        throw new Error(`TRUST_PROXY: bad prefix length in "${entry}"`);
      list.addSubnet(addr, prefix, type);
    }
  }
  return { kind: 'list', list, header };
}

/** An address as written in a header or by the socket: no port, brackets, quotes or IPv4-mapped prefix. */
export function normalizeAddress(raw: string): string | undefined {
  let a = raw.trim().replace(/^"|"$/g, '');
  if (a.startsWith('[')) a = a.slice(1, a.indexOf(']') > 0 ? a.indexOf(']') : undefined);
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(a)) a = a.slice(0, a.lastIndexOf(':'));
  if (/^::ffff:\d{1,3}(\.\d{1,3}){3}$/i.test(a)) a = a.slice(7);
  return isIP(a) ? a.toLowerCase() : undefined;
}
