import type { OidcDiscovery } from "@authsvc/core/custom-providers";
import type { Result } from "@authsvc/core/kernel";

const ok = <T>(value: T) => ({ ok: true as const, value });
const err = (error: string) => ({ ok: false as const, error });

/** How long a discovery document has to arrive (the reference's 10 s). */
export const DISCOVERY_TIMEOUT_MS = 10_000;

const REQUIRED = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
const OPTIONAL_LISTS = [
  "scopes_supported",
  "response_types_supported",
  "grant_types_supported",
  "subject_types_supported",
  "token_endpoint_auth_methods_supported",
] as const;

/**
 * Fetches an OpenID provider's discovery document with `fetchImpl` (a guarded fetch, which also
 * caps its size) and checks it as the reference does: HTTP 200, a JSON object whose `issuer` is
 * exactly `issuer` (no trailing-slash leniency), with the endpoints sign-in needs. Redirects are
 * refused: the document is where the admin said. The error is the reason, for the 400's message.
 */
export async function discoverOidc(
  fetchImpl: typeof fetch,
  url: string,
  issuer: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
): Promise<Result<OidcDiscovery, string>> {
  let body: unknown;
  try {
    const response = await fetchImpl(url, {
      headers: { accept: "application/json" },
      redirect: "error",
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      return err(`HTTP ${response.status}`);
    }
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      return err("the answer is not JSON");
    }
  } catch (error) {
    return err(reasonOf(error, timeoutMs));
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return err("the answer is not a JSON object");
  const doc = body as Record<string, unknown>;
  const missing = REQUIRED.filter((key) => typeof doc[key] !== "string" || doc[key] === "");
  if (missing.length > 0) return err(`the document is missing required fields: ${missing.join(", ")}`);
  if (doc.issuer !== issuer) {
    return err(`issuer mismatch: expected ${JSON.stringify(issuer)}, got ${JSON.stringify(doc.issuer)}`);
  }
  const lists: Record<string, string[]> = {};
  for (const key of OPTIONAL_LISTS) {
    const value = doc[key];
    if (Array.isArray(value))
      lists[key] = value.filter((v): v is string => typeof v === "string").slice(0, 100);
  }
  return ok({
    issuer,
    authorization_endpoint: String(doc.authorization_endpoint),
    token_endpoint: String(doc.token_endpoint),
    jwks_uri: String(doc.jwks_uri),
    ...(typeof doc.userinfo_endpoint === "string" && doc.userinfo_endpoint !== ""
      ? { userinfo_endpoint: doc.userinfo_endpoint }
      : {}),
    ...lists,
  });
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return "request failed";
  if (error.name === "TimeoutError" || error.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return error.message;
}
