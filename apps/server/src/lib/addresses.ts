// Client addresses (docs/decisions.md#security-second-pass-addresses-quota-tokens): which hops of
// X-Forwarded-For are the operator's own proxies (TRUST_PROXY), and the key a per-address limit counts
// an address under. Addresses are parsed by ipaddr.js (Fastify's own proxy-addr uses it) and handled as
// IPv6: an IPv4 address as its IPv4-mapped form (::ffff:a.b.c.d), so that one rule covers both families
// and a mapped address is its IPv4 address.
import ipaddr from 'ipaddr.js';

/** A CIDR range, in IPv6 (IPv4 ranges sit under ::ffff:0:0/96). */
export interface AddressRange {
  network: ipaddr.IPv6;
  prefix: number;
  /** As the operator wrote it, for messages. */
  text: string;
}

/** The proxies the operator runs in front of the server: none, the nearest `count` hops, or a list of ranges. */
export type TrustedProxies =
  { kind: 'none' } | { kind: 'hops'; count: number } | { kind: 'ranges'; ranges: readonly AddressRange[] };

/** The most hops TRUST_PROXY may name: more proxies than this is no real set-up, and a count larger than the chain trusts what the client wrote. */
export const maxTrustedHops = 10;

const mappedZero = ipaddr.IPv6.parse('::ffff:0:0');

/** proxy-addr's names for the usual private ranges, accepted by TRUST_PROXY as well. */
const namedRanges: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * An address as IPv6 (IPv4 as ::ffff:a.b.c.d), or undefined when the text is not an IP address. IPv4 only in
 * its four-part decimal form: ipaddr.js also reads "127.1" or "0x7f.0.0.1", which no proxy writes.
 */
function parseAddress(text: string): ipaddr.IPv6 | undefined {
  const address = text.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return ipaddr.IPv4.parse(address).toIPv4MappedAddress();
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address) : undefined;
}

/**
 * The key per-address limits count a client under: an IPv4 address as itself (an IPv4-mapped IPv6
 * address as its IPv4 address), an IPv6 address as its /64, which one subscriber usually holds whole.
 * Text that is no IP address (a proxy that writes something else) is its own key, cut to 64 characters.
 */
export function addressKey(text: string): string {
  const address = parseAddress(text);
  if (address === undefined) return text.trim().slice(0, 64);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/**
 * Reads TRUST_PROXY. `false`/`no`/`0`/empty: no proxy. A whole number n: the nearest n hops are the
 * operator's (so `1` is one reverse proxy, not the old "trust everything"). Otherwise a comma list of
 * addresses, CIDR ranges and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`. Returns the
 * reason as text when the value is refused: anything that would trust every hop (`true`, `yes`,
 * `0.0.0.0/0`, `::/0`, `::ffff:0:0/96`…) or is not an address.
 */
export function parseTrustedProxies(value: string): TrustedProxies | string {
  const text = value.trim().toLowerCase();
  const instead =
    'write the number of proxies in front of the server (e.g. TRUST_PROXY=1 for one reverse proxy, when the ' +
    'server can be reached only through it) or their addresses (e.g. TRUST_PROXY=127.0.0.1 or ' +
    'TRUST_PROXY=10.0.0.0/8,::1)';
  if (['', 'false', 'no', 'off', '0'].includes(text)) return { kind: 'none' };
  if (['true', 'yes', 'on', 'all', '*'].includes(text)) {
    return (
      `"${value.trim()}" would trust every hop, so any client could choose its own address by writing ` +
      `X-Forwarded-For; ${instead}`
    );
  }
  if (/^\d+$/.test(text)) {
    const count = Number(text);
    if (count === 0) return { kind: 'none' };
    if (count > maxTrustedHops) {
      return (
        `${count} hops is more than ${maxTrustedHops}; a count larger than the real chain of proxies trusts ` +
        `what the client wrote. List the proxies' addresses instead`
      );
    }
    return { kind: 'hops', count };
  }
  const ranges: AddressRange[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    for (const written of namedRanges[entry] ?? [entry]) {
      const range = parseRange(written);
      if (typeof range === 'string') return `${range}; ${instead}`;
      const broad = tooBroad(range);
      if (broad) return `${written} ${broad}, so any client could choose its own address; ${instead}`;
      ranges.push(range);
    }
  }
  return ranges.length ? { kind: 'ranges', ranges } : { kind: 'none' };
}

function parseRange(text: string): AddressRange | string {
  const [address = '', prefixText, extra] = text.split('/');
  const network = extra === undefined && !address.includes('%') ? parseAddress(address) : undefined;
  if (network === undefined) return `"${text}" is not an IP address or CIDR range`;
  const width = network.isIPv4MappedAddress() && !address.includes(':') ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return `"${text}" has no valid prefix length`;
  const written = prefixText === undefined ? width : Number(prefixText);
  if (written > width) return `"${text}" has a prefix longer than ${width}`;
  return { network, prefix: width === 32 ? written + 96 : written, text };
}

/** Why a range trusts too much to be a set of proxies, or undefined when it does not. */
function tooBroad({ network, prefix }: AddressRange): string | undefined {
  if (prefix >= 96 && network.isIPv4MappedAddress()) {
    if (prefix === 96) return 'contains every IPv4 address';
    return prefix - 96 < 8 ? 'covers more than a /8 of IPv4' : undefined;
  }
  if (mappedZero.match(network, prefix)) return 'contains every IPv4 address';
  // fc00::/7, the unique-local block, is the widest range a set of proxies can sensibly be in.
  return prefix < 7 ? 'covers more than a /7 of IPv6' : undefined;
}

/** Whether `address` lies in one of `ranges`. */
export function inRanges(address: string, ranges: readonly AddressRange[]): boolean {
  const parsed = parseAddress(address);
  return parsed !== undefined && ranges.some((range) => parsed.match(range.network, range.prefix));
}

/**
 * Fastify's `trustProxy` for the operator's proxies: false for none; else a function of (address,
 * hop), hop 0 being the socket's peer. Fastify then takes as the client the right-most address that is
 * not trusted. (Fastify reads a bare number as "trust no hop", so hop counts are a function too.)
 */
export function proxyTrust(proxies: TrustedProxies): false | ((address: string, hop: number) => boolean) {
  switch (proxies.kind) {
    case 'none':
      return false;
    case 'hops':
      return (_address, hop) => hop < proxies.count;
    case 'ranges':
      return (address) => inRanges(address, proxies.ranges);
  }
}
