import { isIP } from "node:net";
import { addressRefusal, hostnameRefusal, isLoopback, type OutboundPolicy } from "./address-policy.js";
import { resolveAllowed } from "./guarded-lookup.js";

/** The host of a URL as `isIP` and DNS take it (no brackets around IPv6). */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Why authsvc may not call `url` under `policy`, or null when it may: it must be an absolute
 * `https:` URL without credentials, whose host is no local name and resolves only to public
 * addresses (with the test switch, `http:` and loopback too, `http:` to loopback only). The call
 * itself is checked again when it connects (`guardedFetch`).
 */
export async function outboundUrlRefusal(url: string, policy: OutboundPolicy = {}): Promise<string | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not a valid URL";
  }
  const plain = parsed.protocol === "http:";
  if (parsed.protocol !== "https:" && !(plain && policy.allowLoopbackForTests)) {
    return "only https URLs are allowed";
  }
  if (parsed.username !== "" || parsed.password !== "") return "a URL may not carry credentials";
  const host = bareHost(parsed);
  const named = hostnameRefusal(host, policy);
  if (named !== null) return named;
  let addresses: string[];
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal !== null) return refusal;
    addresses = [host];
  } else {
    try {
      addresses = (await resolveAllowed(host, policy)).map((a) => a.address);
    } catch (error) {
      const code = (error as { code?: string }).code;
      return error instanceof Error && code === "EOUTBOUNDREFUSED"
        ? error.message
        : `${host} does not resolve${code ? ` (${code})` : ""}`;
    }
  }
  if (plain && !addresses.every(isLoopback)) return "only https URLs are allowed";
  return null;
}
