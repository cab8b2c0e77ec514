import { failures } from "@authsvc/core";
import { resolveRedirect } from "@authsvc/core/kernel";
import { PKCE_PREFIX } from "@authsvc/core/pkce";
import { verifyOtp } from "@authsvc/core/verification";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, filledText, parseBody, text, unwrap } from "../../http/body.js";
import { statusOf, toAuthError } from "../../http/errors.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { REDIRECT_QUERY, redirect, ref } from "../../http/operation.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { oauthErrorWord, withQuery } from "../../http/redirects.js";
import { endpoint, type ModuleEndpoint } from "../module.js";

export const TYPES = [
  "signup",
  "invite",
  "magiclink",
  "recovery",
  "email_change",
  "email",
  "sms",
  "phone_change",
] as const;
export const LINK_TYPES = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;
type VerifyType = (typeof TYPES)[number];
const PHONE_TYPES: readonly string[] = ["sms", "phone_change"];

export const VerifyBody = v.object({
  type: text,
  token: filledText,
  token_hash: filledText,
  email: filledText,
  phone: filledText,
  password: filledText,
  redirect_to: text,
});

function verifyType(value: string | undefined, allowed: readonly string[]): VerifyType {
  if (value === undefined || !allowed.includes(value)) {
    throw failures.verifyTypeRequired(allowed);
  }
  return value as VerifyType;
}

/**
 * `redirect_to#k=v&…` (sorted keys, `sb` marks an auth redirect, as the reference writes them); with
 * `query`, the values are also set in the query (a PKCE flow's errors, which a server reads).
 */
function redirectWithFragment(c: Context<AppEnv>, to: string, values: Record<string, string>, query = false) {
  const fragment = new URLSearchParams(
    Object.entries({ ...values, sb: "" }).sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  const base = to.split("#")[0] ?? to;
  return c.redirect(`${query ? withQuery(base, values) : base}#${fragment.toString()}`, 303);
}

/** `POST /verify` (a code or token hash → a session) and `GET /verify` (a mailed link → a redirect). */
export const verifyEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/verify",
      summary: "Verifies a code (with its email or phone) or a token hash: a session.",
      description: `\`type\` is one of ${TYPES.map((t) => `\`${t}\``).join(", ")}. The first confirmation of a two-step email change answers a message instead.`,
      hooks: true,
      access: "public",
      limited: true,
      query: [REDIRECT_QUERY],
      body: {
        schema: VerifyBody,
        fields: {
          type: { enum: [...TYPES], description: "What the code or token confirms; required." },
          token: { description: "The code from the mail or SMS, with its `email` or `phone`." },
          token_hash: { description: "The token hash of a mailed link, instead of `token` and an address." },
          password: {
            description: "A new password set with the confirmation (`signup`, `invite`, `recovery`).",
          },
        },
      },
      responses: {
        200: {
          description:
            "A session (with the verified `type`), or a message when the other address must confirm too.",
          body: { anyOf: [ref("VerifiedSession"), ref("VerifyMessage")] },
        },
      },
      errors: [403, 404, 422],
    },
    () => [
      async (c) => {
        const {
          type: requested,
          token_hash: tokenHash,
          redirect_to,
          ...body
        } = parseBody(VerifyBody, await readJsonObject(c));
        const type = verifyType(requested, TYPES);
        const redirectTo = c.req.query("redirect_to") ?? redirect_to;
        const result = unwrap(
          await verifyOtp(c.get("deps"), { type, ...body, ...defined({ tokenHash, redirectTo }) }),
        );
        if (result.kind === "message") return c.json({ msg: result.message, code: 200 });
        if (result.kind === "code") throw new Error("POST /verify never runs a PKCE flow");
        const session = sessionJson(result.tokens);
        return c.json(PHONE_TYPES.includes(type) ? session : { ...session, type });
      },
    ],
    { limit: { name: "verify", per5Min: "verify" } },
  ),
  endpoint(
    {
      method: "get",
      path: "/verify",
      summary: "The link of a mail: verifies its token and sends the browser on.",
      description:
        "To `redirect_to` with the session in the fragment, with `?code=` for a PKCE flow, or with `error`, `error_code` and `error_description` when the link is used or expired.",
      access: "public",
      limited: true,
      query: [
        { name: "type", description: "The link's kind.", required: true, schema: { enum: [...LINK_TYPES] } },
        { name: "token", description: "The token hash the mail carried.", required: true },
        REDIRECT_QUERY,
      ],
      responses: { 303: redirect("To `redirect_to` (or `SITE_URL`) with the outcome.") },
    },
    ({ auth: deps }) => [
      async (c) => {
        const requested = c.req.query("redirect_to");
        const fallback = resolveRedirect(requested, {
          siteUrl: deps.settings.siteUrl,
          allowList: deps.settings.uriAllowList,
        });
        const pkce = c.req.query("token")?.startsWith(PKCE_PREFIX) ?? false;
        try {
          const type = verifyType(c.req.query("type"), LINK_TYPES);
          const tokenHash = c.req.query("token");
          if (!tokenHash) throw failures.verifyLinkTokenMissing();
          const result = unwrap(
            await verifyOtp(c.get("deps"), {
              type,
              tokenHash,
              pkce,
              ...(requested !== undefined ? { redirectTo: requested } : {}),
            }),
          );
          if (result.kind === "message")
            return redirectWithFragment(c, result.redirectTo, { message: result.message }, pkce);
          // A PKCE link lands with `?code=`: the client exchanges it with its code verifier.
          if (result.kind === "code")
            return c.redirect(withQuery(result.redirectTo, { code: result.code }), 303);
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
          if (statusOf(c, error) >= 500) c.get("log").error({ err: thrown }, "verify failed");
          return redirectWithFragment(
            c,
            fallback,
            {
              error: oauthErrorWord(c, error),
              error_code: error.code,
              error_description: error.message,
              ...(statusOf(c, error) >= 500 ? { error_id: c.get("requestId") } : {}),
            },
            pkce,
          );
        }
      },
    ],
    { limit: { name: "verify", per5Min: "verify" } },
  ),
];
