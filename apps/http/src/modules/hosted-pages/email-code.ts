import { sendMagicLink } from "@authsvc/core/passwordless";
import { verifyOtp } from "@authsvc/core/verification";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import type { Look } from "./layout.js";
import { afterFirstFactor } from "./mfa-step.js";
import { otpCodePage } from "./pages.js";
import {
  CSRF,
  captchaProblem,
  carried,
  expired,
  expiry,
  formBody,
  formStep,
  gate,
  html,
  LOCALE_FIELD,
  OFF,
  opened,
  type Pages,
  pagesOf,
  sign,
  string,
} from "./shared.js";
import { FIRST_FACTOR_ANSWERS, signInAnswer } from "./sign-in.js";

const PURPOSE = "oauth-consent-email-code";

/**
 * Refusals of a send that must read as a sent code: an address with no user (no user is made here),
 * and a user's send limits (which only a known address reaches). Telling them apart would tell who has
 * an account; the code of an earlier mail, still valid, is entered on the same form.
 */
const ANSWERED_AS_SENT = new Set(["otp_disabled", "signup_disabled", "over_email_send_rate_limit"]);

/** The code's form for `email`, with a proof binding the address to the request and this browser. */
function codeForm(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  form: Record<string, string>,
  email: string,
  problem?: string,
) {
  const fields = carried(form, look);
  // The address is part of the proof, base64url-encoded: a proof's parts are joined by dots.
  const proof = sign(pages.ctx.auth, PURPOSE, fields, [Buffer.from(email).toString("base64url"), expiry()]);
  const page = otpCodePage(
    { action: `${look.root}/email-code/verify`, fields: { ...fields, proof }, email, problem },
    look,
  );
  return html(c, look, page, problem ? 400 : 200);
}

/**
 * Signing in with a code sent by email (`POST /otp`'s use case, without making a user): the address,
 * then the code, then as after a password (the second factor, consent).
 */
export const emailCodeEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/email-code",
      summary:
        "Sends a sign-in code to the address (as `POST /otp`, making no user), then shows the code's form, whether or not the address has a user.",
      access: "public",
      limited: true,
      body: formBody({ authorization_id: string, csrf: CSRF, locale: LOCALE_FIELD, email: string }),
      responses: {
        200: htmlPage("The code's form."),
        400: htmlPage("The sign-in form again with the problem, or a page naming it."),
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          const refused = await captchaProblem(ctx.captcha, c, form);
          if (refused !== null) return signInAnswer(pages, c, look, fields, refused);
          const email = (form.email ?? "").trim();
          const sent = await sendMagicLink(c.get("deps"), { email, createUser: false });
          if (!sent.ok && !ANSWERED_AS_SENT.has(sent.error.code))
            return signInAnswer(pages, c, look, fields, sent.error.message);
          return codeForm(pages, c, look, form, email);
        }),
      ];
    },
    // The per-client count and the message pacing of `POST /otp`, shared with it.
    { limit: { name: "otp", per5Min: "otp" }, pacing: "message" },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/email-code/verify",
      summary: "The emailed code (as `POST /verify` with `type=email`), then as after a password.",
      access: "public",
      limited: true,
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        proof: {
          ...string,
          description: "The send step's proof, bound to the request, address and browser.",
        },
        code: string,
      }),
      responses: {
        ...FIRST_FACTOR_ANSWERS,
        400: htmlPage("The code's form again with the problem, or a page naming it."),
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const parts = opened(ctx.auth, PURPOSE, carried(form, look), form.proof ?? "", 2);
          if (parts === null) return expired(c, look);
          const email = Buffer.from(parts[0] ?? "", "base64url").toString();
          // Five wrong codes for an address end its code (MAX_CODE_ATTEMPTS), as on `POST /verify`.
          const verified = await verifyOtp(c.get("deps"), {
            type: "email",
            token: (form.code ?? "").trim(),
            email,
          });
          if (!verified.ok) return codeForm(pages, c, look, form, email, verified.error.message);
          if (verified.value.kind !== "session") return expired(c, look);
          const { user, session } = verified.value.tokens;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        }),
      ];
    },
    // The per-client count of `POST /verify`, shared with it.
    { limit: { name: "verify", per5Min: "verify" } },
  ),
];
