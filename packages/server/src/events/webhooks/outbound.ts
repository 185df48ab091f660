/**
 * The one way a webhook leaves the process (the trust rules): https only (plain http to a loopback host
 * in sandbox mode); in live mode the host is resolved at delivery time and refused when any address is
 * private, loopback, link-local (cloud metadata included), unspecified or otherwise not public, and the
 * connection goes to the address that was checked (no second lookup a DNS rebinding could change); a
 * timeout; redirects are answers, never followed; at most `maxBody` bytes of the answer are read.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

export interface OutboundPolicy {
  /** Sandbox: loopback endpoints (http or https) are allowed; private addresses are not checked. */
  sandbox: boolean;
  timeoutMs?: number;
  maxBody?: number;
  /** Resolves a host (tests inject one); default the system resolver. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

export class OutboundRefused extends Error {
  readonly code = 'webhook_url_refused';
}

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether `address` may be called in live mode (IPv4-mapped IPv6 judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return !blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The URL's shape: refused here before anything is resolved (also checked at registration). */
export function checkUrl(raw: string, policy: Pick<OutboundPolicy, 'sandbox'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused('The webhook URL is not a valid URL.');
  }
  if (url.username || url.password) throw new OutboundRefused('The webhook URL may not carry credentials.');
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === 'https:') {
    if (loopback && !policy.sandbox)
      throw new OutboundRefused('A loopback webhook URL is allowed in sandbox only.');
    return url;
  }
  if (url.protocol === 'http:' && loopback && policy.sandbox) return url;
  throw new OutboundRefused('A webhook URL must use https (plain http only to a loopback host in sandbox).');
}

export interface OutboundAnswer {
  status: number;
  /** The first bytes of the answer (at most maxBody), as text. */
  excerpt: string;
}

/** POSTs `body` to `raw` under the policy; throws OutboundRefused before any connection when refused. */
export async function postWebhook(
  raw: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
): Promise<OutboundAnswer> {
  const url = checkUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolve = policy.resolve ?? ((h: string) => lookup(h, { all: true, verbatim: true }));
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  const first = addresses[0];
  if (!first) throw new OutboundRefused(`The webhook host ${host} does not resolve.`);
  if (!policy.sandbox && addresses.some((a) => !isPublicAddress(a.address)))
    throw new OutboundRefused(`The webhook host ${host} resolves to a non-public address.`);
  const maxBody = policy.maxBody ?? 4096;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundAnswer>((resolveAnswer, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        timeout: policy.timeoutMs ?? 10_000,
        // Connect to the address checked above, never to a second answer of the resolver.
        lookup: (_h, opts, cb) => {
          if ((opts as { all?: boolean }).all) cb(null, [{ address: first.address, family: first.family }]);
          else cb(null, first.address, first.family);
        },
        ...(url.protocol === 'https:' ? { servername: isIP(host) ? undefined : host } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolveAnswer({
            status: res.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, maxBody),
          });
        res.on('data', (c: Buffer) => {
          if (size >= maxBody) return;
          chunks.push(c.subarray(0, maxBody - size));
          size += c.length;
          if (size >= maxBody) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('the webhook endpoint did not answer in time')));
    req.on('error', reject);
    req.end(body);
  });
}
