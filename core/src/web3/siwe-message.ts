import { type AbsoluteUrl, err, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";

/** An EIP-4361 (Sign-In with Ethereum) message, as parsed. */
export interface SiweMessage {
  readonly raw: string;
  /** The site asking for the sign-in (`host[:port]`), from the first line. */
  readonly domain: string;
  /** The wallet's address as written (`0x` and 40 hex digits, case kept). */
  readonly address: string;
  readonly statement: string | null;
  readonly uri: AbsoluteUrl;
  readonly chainId: string | null;
  readonly nonce: string | null;
  readonly issuedAt: Date;
  readonly expirationTime: Date | null;
  readonly notBefore: Date | null;
  readonly requestId: string | null;
  readonly resources: readonly string[];
}

const HEADER_SUFFIX = " wants you to sign in with your Ethereum account:";
const ADDRESS = /^0x[a-fA-F0-9]{40}$/;
const DOMAIN = /^(localhost|([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63})(:\d{1,5})?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const CHAIN_ID = /^[1-9]\d{0,15}$/;
const KEYS = [
  "URI",
  "Version",
  "Chain ID",
  "Nonce",
  "Issued At",
  "Expiration Time",
  "Not Before",
  "Request ID",
];

/** A timestamp as RFC 3339 writes it; null for anything else. */
function timestamp(value: string): Date | null {
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/**
 * Parses an EIP-4361 message with the reference's grammar and its error sentences (`siwe: …`), and
 * more strictly where the reference is lenient: a key given twice, and a URI that the redirect
 * parser would not read the same way a browser does, are refused.
 */
export function parseSiweMessage(raw: string): Result<SiweMessage, string> {
  const lines = raw.split("\n");
  if (lines.length < 6) return err("siwe: message needs at least 6 lines");
  const header = lines[0] ?? "";
  if (!header.endsWith(HEADER_SUFFIX)) {
    return err(`siwe: message first line does not end in "${HEADER_SUFFIX}"`);
  }
  const domain = header.slice(0, -HEADER_SUFFIX.length).trim();
  if (!DOMAIN.test(domain)) return err("siwe: domain in first line of message is not valid");
  const address = (lines[1] ?? "").trim();
  if (!ADDRESS.test(address)) return err("siwe: wallet address is not a valid Ethereum address");
  if (lines[2] !== "") return err("siwe: third line must be empty");
  let start = 3;
  let statement: string | null = null;
  if (lines[3] !== "" && lines[4] === "") {
    statement = lines[3] ?? "";
    start = 5;
  }
  const values = new Map<string, string>();
  const resources: string[] = [];
  let inResources = false;
  for (let i = start; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (inResources && line.startsWith("- ")) {
      const resource = line.slice(2).trim();
      if (parseAbsoluteUrl(resource) === null) {
        return err(`siwe: Resource at position ${resources.length} has invalid URI`);
      }
      resources.push(resource);
      continue;
    }
    inResources = false;
    if (line === "Resources:") {
      inResources = true;
      continue;
    }
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon < 0) return err(`siwe: encountered unparsable line at index ${i}`);
    const key = line.slice(0, colon);
    if (!KEYS.includes(key)) continue;
    if (values.has(key)) return err(`siwe: ${key} is given more than once`);
    values.set(key, line.slice(colon + 1).trim());
  }

  const uriText = values.get("URI");
  const uri = uriText === undefined ? null : parseAbsoluteUrl(uriText);
  if (uriText !== undefined && uri === null) return err("siwe: URI is not valid");
  const chainId = values.get("Chain ID") ?? null;
  if (chainId !== null && !CHAIN_ID.test(chainId)) return err("siwe: Chain ID is not valid");
  const dates: Record<string, Date | null> = {};
  for (const [key, name] of [
    ["Issued At", "Issued At"],
    ["Expiration Time", "Expiration Time"],
    ["Not Before", "Not Before"],
  ] as const) {
    const value = values.get(key);
    if (value === undefined) {
      dates[key] = null;
      continue;
    }
    const parsed = timestamp(value);
    if (parsed === null) return err(`siwe: ${name} is not a valid ISO8601 timestamp`);
    dates[key] = parsed;
  }
  const version = values.get("Version") ?? "";
  if (version !== "1") return err(`siwe: Version value is not supported, expected 1 got "${version}"`);
  const issuedAt = dates["Issued At"] ?? null;
  if (issuedAt === null) return err("siwe: Issued At is not specified");
  if (uri === null) return err("siwe: URI is not specified");
  const expirationTime = dates["Expiration Time"] ?? null;
  const notBefore = dates["Not Before"] ?? null;
  if (expirationTime !== null && issuedAt > expirationTime) {
    return err("siwe: Issued At is after Expiration Time");
  }
  if (notBefore !== null && expirationTime !== null && notBefore > expirationTime) {
    return err("siwe: Not Before is after Expiration Time");
  }
  return ok({
    raw,
    domain,
    address,
    statement,
    uri,
    chainId,
    nonce: values.get("Nonce") ?? null,
    issuedAt,
    expirationTime,
    notBefore,
    requestId: values.get("Request ID") ?? null,
    resources,
  });
}

/** Why a well-formed message is refused at a given time; null when it is valid then. */
export function siweTimeProblem(message: SiweMessage, now: Date, maxValidityMs: number): string | null {
  const t = now.getTime();
  if (message.notBefore !== null && t < message.notBefore.getTime()) return "message is not valid yet";
  if (message.expirationTime !== null && t >= message.expirationTime.getTime()) return "message is expired";
  if (t > message.issuedAt.getTime() + maxValidityMs) return "message was issued too long ago";
  if (t < message.issuedAt.getTime() - maxValidityMs) return "message was issued too far in the future";
  return null;
}
