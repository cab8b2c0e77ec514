import { type AbsoluteUrl, err, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";

/** A sign-in message (EIP-4361 for Ethereum, its Solana twin SIWS), as parsed. */
export interface SignInMessage {
  readonly raw: string;
  /** The site asking for the sign-in (`host[:port]`), from the first line. */
  readonly domain: string;
  /** The wallet's address as written (case kept). */
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

/** What tells one chain's messages from another's: the rest of the grammar is shared. */
export interface MessageDialect {
  /** Starts every error sentence, as the reference's parsers (`siwe`, `siws`). */
  readonly prefix: string;
  /** The chain's name in the header: `… wants you to sign in with your <account> account:`. */
  readonly account: string;
  readonly address: RegExp;
  /** The sentence (after the prefix) for an address that does not match. */
  readonly addressProblem: string;
  /** Whether a `Chain ID` value is one of the chain's. */
  readonly chainId: (value: string) => boolean;
}

const DOMAIN = /^(localhost|([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63})(:\d{1,5})?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
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
const TIMES = ["Issued At", "Expiration Time", "Not Before"] as const;

/** A timestamp as RFC 3339 writes it; null for anything else. */
function timestamp(value: string): Date | null {
  if (!RFC3339.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms);
}

/** The `Key: value` lines and the resources after the header and statement. */
function fields(
  lines: readonly string[],
  start: number,
): Result<{ values: Map<string, string>; resources: string[] }, string> {
  const values = new Map<string, string>();
  const resources: string[] = [];
  let inResources = false;
  for (let i = start; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (inResources && line.startsWith("- ")) {
      const resource = line.slice(2).trim();
      if (parseAbsoluteUrl(resource) === null) {
        return err(`Resource at position ${resources.length} has invalid URI`);
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
    if (colon < 0) return err(`encountered unparsable line at index ${i}`);
    const key = line.slice(0, colon);
    if (!KEYS.includes(key)) continue;
    // The reference keeps the last of a repeated key: a message could show one URI and sign in with another.
    if (values.has(key)) return err(`${key} is given more than once`);
    values.set(key, line.slice(colon + 1).trim());
  }
  return ok({ values, resources });
}

/**
 * Parses a sign-in message with the reference's grammar and its error sentences (`siwe: …`,
 * `siws: …`), and more strictly where the reference is lenient: a key given twice, and a URI that the
 * redirect parser would not read the same way a browser does, are refused.
 */
export function parseSignInMessage(raw: string, dialect: MessageDialect): Result<SignInMessage, string> {
  const parsed = parse(raw, dialect);
  return parsed.ok ? parsed : err(`${dialect.prefix}: ${parsed.error}`);
}

function parse(raw: string, dialect: MessageDialect): Result<SignInMessage, string> {
  const lines = raw.split("\n");
  if (lines.length < 6) return err("message needs at least 6 lines");
  const suffix = ` wants you to sign in with your ${dialect.account} account:`;
  const header = lines[0] ?? "";
  if (!header.endsWith(suffix)) return err(`message first line does not end in "${suffix}"`);
  const domain = header.slice(0, -suffix.length).trim();
  if (!DOMAIN.test(domain)) return err("domain in first line of message is not valid");
  const address = (lines[1] ?? "").trim();
  if (!dialect.address.test(address)) return err(dialect.addressProblem);
  if (lines[2] !== "") return err("third line must be empty");
  const hasStatement = lines[3] !== "" && lines[4] === "";
  const statement = hasStatement ? (lines[3] ?? "") : null;
  const read = fields(lines, hasStatement ? 5 : 3);
  if (!read.ok) return read;
  const { values, resources } = read.value;

  const uriText = values.get("URI");
  const uri = uriText === undefined ? null : parseAbsoluteUrl(uriText);
  if (uriText !== undefined && uri === null) return err("URI is not valid");
  const chainId = values.get("Chain ID") ?? null;
  if (chainId !== null && !dialect.chainId(chainId)) return err("Chain ID is not valid");
  const dates: Partial<Record<(typeof TIMES)[number], Date>> = {};
  for (const key of TIMES) {
    const value = values.get(key);
    if (value === undefined) continue;
    const parsed = timestamp(value);
    if (parsed === null) return err(`${key} is not a valid ISO8601 timestamp`);
    dates[key] = parsed;
  }
  const version = values.get("Version") ?? "";
  if (version !== "1") return err(`Version value is not supported, expected 1 got "${version}"`);
  const issuedAt = dates["Issued At"] ?? null;
  if (issuedAt === null) return err("Issued At is not specified");
  if (uri === null) return err("URI is not specified");
  const expirationTime = dates["Expiration Time"] ?? null;
  const notBefore = dates["Not Before"] ?? null;
  if (expirationTime !== null && issuedAt > expirationTime) return err("Issued At is after Expiration Time");
  if (notBefore !== null && expirationTime !== null && notBefore > expirationTime) {
    return err("Not Before is after Expiration Time");
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

/** Why a well-formed message is refused at a given time. */
export type MessageTimeProblem = "not-yet-valid" | "expired" | "issued-too-long-ago" | "issued-in-the-future";

/**
 * Why a message is refused at `now`; null when it is valid then. Unlike the reference on Ethereum,
 * `Expiration Time` counts whether or not `Not Before` is given, and a message is expired at that instant.
 */
export function messageTimeProblem(
  message: SignInMessage,
  now: Date,
  maxValidityMs: number,
): MessageTimeProblem | null {
  const t = now.getTime();
  if (message.notBefore !== null && t < message.notBefore.getTime()) return "not-yet-valid";
  if (message.expirationTime !== null && t >= message.expirationTime.getTime()) return "expired";
  if (t > message.issuedAt.getTime() + maxValidityMs) return "issued-too-long-ago";
  if (t < message.issuedAt.getTime() - maxValidityMs) return "issued-in-the-future";
  return null;
}
