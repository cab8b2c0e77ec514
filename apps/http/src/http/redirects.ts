import type { AuthError } from "@authsvc/core/kernel";
import type { SessionTokens } from "@authsvc/core/sessions";
import type { Context } from "hono";
import { statusOf } from "./errors.js";

/** The reference's `error` word for an error in a redirect (`access_denied` for refusals of the person). */
export function oauthErrorWord(c: Context, error: AuthError): string {
  if (["signup_disabled", "user_banned", "provider_email_needs_verification"].includes(error.code)) {
    return "access_denied";
  }
  const byStatus: Record<number, string> = {
    400: "invalid_request",
    401: "unauthorized_client",
    403: "access_denied",
    500: "server_error",
    503: "temporarily_unavailable",
  };
  return byStatus[statusOf(c, error)] ?? "server_error";
}

/** `values` url-encoded with sorted keys, as Go's `url.Values.Encode` writes a redirect's fragment. */
export function sortedParams(values: Record<string, string>): string {
  return new URLSearchParams(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1))).toString();
}

/** `to` with `values` set in its query (replacing parameters of the same name), fragment dropped. */
export function withQuery(to: string, values: Record<string, string>): string {
  const url = new URL(to);
  for (const [key, value] of Object.entries(values)) url.searchParams.set(key, value);
  url.hash = "";
  return url.toString();
}

/** The implicit flow's landing: the session in the fragment, plus `extra` (provider tokens, type), and `sb`. */
export function sessionFragmentUrl(
  to: string,
  tokens: SessionTokens,
  extra: Record<string, string> = {},
): string {
  const base = to.split("#")[0] ?? to;
  return `${base}#${sortedParams({
    access_token: tokens.accessToken,
    expires_at: String(tokens.expiresAt),
    expires_in: String(tokens.expiresIn),
    refresh_token: tokens.refreshToken,
    token_type: "bearer",
    ...extra,
    sb: "",
  })}`;
}

/** An error landing: `error`, `error_code`, `error_description` in the query and (with `sb`) the fragment. */
export function errorUrl(to: string, values: Record<string, string>, inFragment = true): string {
  const query = withQuery(to, values);
  return inFragment ? `${query}#${sortedParams({ ...values, sb: "" })}` : query;
}
