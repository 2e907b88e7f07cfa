import { networkInterfaces } from "node:os";
import { formatIPv4, formatIPv6, parseIPv4, parseIPv6 } from "./addresses.js";

/** One address of one interface, with the string attributes the host data lists for it. */
export type NetworkEntry = Record<string, string>;

const quote = (a: string, b: string): string => `${JSON.stringify(a)} ${JSON.stringify(b)}`;

/** The attributes of `address/prefix` (IPv4 or IPv6), as the scheduler's socket-address dump names them. */
export function describeAddress(family: "IPv4" | "IPv6", address: string, prefix: number): NetworkEntry | undefined {
  const v4 = family === "IPv4";
  const bits = v4 ? 32 : 128;
  const value = v4 ? parseIPv4(address) : parseIPv6(address);
  if (value === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > bits) return undefined;
  const all = (1n << BigInt(bits)) - 1n;
  const mask = (all << BigInt(bits - prefix)) & all;
  const network = value & mask;
  const last = network | (~mask & all);
  const size = 1n << BigInt(bits - prefix);
  const format = v4 ? formatIPv4 : formatIPv6;
  const text = format(value);
  let first = network;
  let lastUsable = last;
  if (v4 && prefix < 31) {
    first = network + 1n;
    lastUsable = last - 1n;
  }
  if (prefix === bits) first = lastUsable = value;
  const bytes = Array.from({ length: bits / 8 }, (_, i) => String((value >> BigInt(bits - 8 * (i + 1))) & 0xffn));
  const hostOnly = prefix === bits;
  const listen = hostOnly ? (v4 ? `${text}:0` : `[${text}]:0`) : "";
  const suffix = v4 ? "4" : "6";
  return {
    DialPacket: quote(`udp${suffix}`, ""),
    DialStream: quote(`tcp${suffix}`, ""),
    ListenPacket: quote(`udp${suffix}`, listen),
    ListenStream: quote(`tcp${suffix}`, listen),
    address: text,
    binary: value.toString(2).padStart(bits, "0"),
    broadcast: v4 ? formatIPv4(last) : "",
    first_usable: format(first),
    hex: value.toString(16).padStart(bits / 4, "0"),
    host: text,
    last_usable: format(lastUsable),
    mask_bits: String(prefix),
    netmask: format(mask),
    network: `${format(network)}/${prefix}`,
    octets: bytes.join(" "),
    port: "0",
    size: size.toString(),
    string: hostOnly ? text : `${text}/${prefix}`,
    type: family,
    uint32: v4 ? value.toString() : "",
    ...(v4 ? {} : { uint128: value.toString() }),
  };
}

/** Every address of every interface of this host. */
export function hostNetwork(): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const info of addresses ?? []) {
      const prefix = Number((info.cidr ?? "").split("/")[1]);
      const entry = describeAddress(info.family, info.address, prefix);
      if (entry !== undefined) entries.push(entry);
    }
  }
  return entries;
}
