import { type AuthDeps, type AuthError, resolveRedirect, verifyOtp } from "@authsvc/core";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../app-env.js";
import { optionalString, unwrap } from "../body-fields.js";
import { httpError, statusOf, toAuthError } from "../errors.js";
import { readJsonObject } from "../middleware/json-body.js";
import { sessionJson } from "../presenters/session-json.js";

const TYPES = [
  "signup",
  "invite",
  "magiclink",
  "recovery",
  "email_change",
  "email",
  "sms",
  "phone_change",
] as const;
const LINK_TYPES = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;
type VerifyType = (typeof TYPES)[number];
const PHONE_TYPES: readonly string[] = ["sms", "phone_change"];

function verifyType(value: string | undefined, allowed: readonly string[]): VerifyType {
  if (value === undefined || !allowed.includes(value)) {
    throw httpError(400, "validation_failed", `Verify requires a verification type of ${allowed.join(", ")}`);
  }
  return value as VerifyType;
}

/** The reference's `error` word for an error status in a redirect. */
function oauthErrorWord(error: AuthError): string {
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
  return byStatus[statusOf(error)] ?? "server_error";
}

/** `redirect_to#k=v&…` (sorted keys, `sb` marks an auth redirect, as the reference writes them). */
function redirectWithFragment(c: Context<AppEnv>, to: string, values: Record<string, string>) {
  const fragment = new URLSearchParams(
    Object.entries({ ...values, sb: "" }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  const base = to.split("#")[0] ?? to;
  return c.redirect(`${base}#${fragment.toString()}`, 303);
}

/** `POST /verify` (a code or token hash → a session) and `GET /verify` (a mailed link → a redirect). */
export const verifyRoutes = (deps: AuthDeps) =>
  new Hono<AppEnv>()
    .post("/verify", async (c) => {
      const body = await readJsonObject(c);
      const type = verifyType(optionalString(body, "type"), TYPES);
      const input = {
        type,
        token: optionalString(body, "token") || undefined,
        tokenHash: optionalString(body, "token_hash") || undefined,
        email: optionalString(body, "email") || undefined,
        phone: optionalString(body, "phone") || undefined,
        password: optionalString(body, "password") || undefined,
        redirectTo: c.req.query("redirect_to") ?? optionalString(body, "redirect_to"),
      };
      const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
      const result = unwrap(await verifyOtp(deps, defined as typeof input));
      if (result.kind === "message") return c.json({ msg: result.message, code: 200 });
      const session = sessionJson(result.tokens);
      return c.json(PHONE_TYPES.includes(type) ? session : { ...session, type });
    })
    .get("/verify", async (c) => {
      const requested = c.req.query("redirect_to");
      const fallback = resolveRedirect(requested, {
        siteUrl: deps.settings.siteUrl,
        allowList: deps.settings.uriAllowList,
      });
      try {
        const type = verifyType(c.req.query("type"), LINK_TYPES);
        const tokenHash = c.req.query("token");
        if (!tokenHash) throw httpError(400, "validation_failed", "Verify requires a token");
        const result = unwrap(
          await verifyOtp(deps, {
            type,
            tokenHash,
            ...(requested !== undefined ? { redirectTo: requested } : {}),
          }),
        );
        if (result.kind === "message")
          return redirectWithFragment(c, result.redirectTo, { message: result.message });
        const { tokens } = result;
        return redirectWithFragment(c, result.redirectTo, {
          access_token: tokens.accessToken,
          expires_at: String(tokens.expiresAt),
          expires_in: String(tokens.expiresIn),
          refresh_token: tokens.refreshToken,
          token_type: "bearer",
          type,
        });
      } catch (thrown) {
        // A used or expired link logs nobody in: the browser lands on the site with the error.
        const error = toAuthError(thrown);
        if (statusOf(error) >= 500) c.get("log").error({ err: thrown }, "verify failed");
        return redirectWithFragment(c, fallback, {
          error: oauthErrorWord(error),
          error_code: error.code,
          error_description: error.message,
          ...(statusOf(error) >= 500 ? { error_id: c.get("requestId") } : {}),
        });
      }
    });
