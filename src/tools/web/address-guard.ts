import { isIP } from "node:net";

/**
 * Why an address must not be fetched, or undefined for a public one. A page the model was told
 * to fetch (or a redirect a hostile server sends) must not reach the machine itself, the local
 * network or a cloud metadata service: loopback, private, link-local, CGNAT, unspecified,
 * multicast and reserved ranges are refused, and IPv6 forms that carry an IPv4 address
 * (mapped, compatible, NAT64, 6to4) are judged by that address. Pure.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return ipv4Reason(ipv4Octets(address));
  if (family === 6) return ipv6Reason(ipv6Groups(address));
  return `${address} is not an IP address`;
}

const IPV4_RANGES: ReadonlyArray<{ base: [number, number, number, number]; bits: number; what: string }> = [
  { base: [0, 0, 0, 0], bits: 8, what: "an unspecified (this-network) address" },
  { base: [10, 0, 0, 0], bits: 8, what: "a private address" },
  { base: [100, 64, 0, 0], bits: 10, what: "a carrier-grade NAT address" },
  { base: [127, 0, 0, 0], bits: 8, what: "a loopback address" },
  { base: [169, 254, 0, 0], bits: 16, what: "a link-local address" },
  { base: [172, 16, 0, 0], bits: 12, what: "a private address" },
  { base: [192, 0, 0, 0], bits: 24, what: "a reserved protocol address" },
  { base: [192, 168, 0, 0], bits: 16, what: "a private address" },
  { base: [198, 18, 0, 0], bits: 15, what: "a benchmarking address" },
  { base: [224, 0, 0, 0], bits: 4, what: "a multicast address" },
  { base: [240, 0, 0, 0], bits: 4, what: "a reserved address" },
];

function ipv4Reason(octets: number[]): string | undefined {
  const value = toUint32(octets);
  for (const range of IPV4_RANGES) {
    const mask = range.bits === 0 ? 0 : (0xffffffff << (32 - range.bits)) >>> 0;
    if ((value & mask) >>> 0 === (toUint32(range.base) & mask) >>> 0) return `${octets.join(".")} is ${range.what}`;
  }
  return undefined;
}

function ipv6Reason(groups: number[]): string | undefined {
  const text = groups.map((group) => group.toString(16)).join(":");
  const embedded = embeddedIpv4(groups);
  if (embedded) {
    const reason = ipv4Reason(embedded);
    return reason && `${text} carries ${reason}`;
  }
  if (groups.every((group) => group === 0)) return `${text} is the unspecified address`;
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return `${text} is the loopback address`;
  const first = groups[0]!;
  if ((first & 0xffc0) === 0xfe80) return `${text} is a link-local address`;
  if ((first & 0xffc0) === 0xfec0) return `${text} is a site-local address`;
  if ((first & 0xfe00) === 0xfc00) return `${text} is a unique-local (private) address`;
  if ((first & 0xff00) === 0xff00) return `${text} is a multicast address`;
  return undefined;
}

/** The IPv4 address an IPv6 address stands for, in the forms a resolver or attacker may use. */
function embeddedIpv4(groups: number[]): number[] | undefined {
  const low = (index: number) => [groups[index]! >> 8, groups[index]! & 0xff, groups[index + 1]! >> 8, groups[index + 1]! & 0xff];
  const zeros = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), ::a.b.c.d (the old compatible form).
  if (zeros(0, 5) && groups[5] === 0xffff) return low(6);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return low(6);
  if (zeros(0, 6) && (groups[6] !== 0 || groups[7]! > 1)) return low(6);
  // 64:ff9b::a.b.c.d (NAT64) and 2002:AABB:CCDD:: (6to4).
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return low(6);
  if (groups[0] === 0x2002) return low(1);
  return undefined;
}

function ipv4Octets(address: string): number[] {
  return address.split(".").map(Number);
}

function toUint32(octets: readonly number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/** An IPv6 address (already checked by isIP) as its eight 16-bit groups; a zone (`%eth0`) is ignored. */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = ipv4Octets(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
