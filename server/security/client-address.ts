import { isIPv6 } from 'node:net';

/**
 * The address a per-address counter counts: an IPv4 address as it is, an IPv6 address by its /64
 * network - one subscriber holds a whole /64, so counting single IPv6 addresses would let one
 * machine take a fresh address for every attempt. An IPv4-mapped IPv6 address counts as its IPv4.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
