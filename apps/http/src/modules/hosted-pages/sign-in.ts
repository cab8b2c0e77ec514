import { randomBytes } from "node:crypto";
import { signInWithPasskey } from "@authsvc/core/passkeys";
import { signInWithPassword } from "@authsvc/core/sessions";
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { AppEnv } from "../../http/app-env.js";
import { redirect } from "../../http/operation.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import type { Look } from "./layout.js";
import { afterFirstFactor } from "./mfa-step.js";
import { problemPage, signInPage } from "./pages.js";
import { offeredProviders } from "./provider-list.js";
import {
  CSRF,
  CSRF_COOKIE,
  captchaProblem,
  carried,
  formBody,
  formStep,
  gate,
  guessLimit,
  html,
  LOCALE_FIELD,
  lookOf,
  OFF,
  PATH,
  type Pages,
  PROBLEM,
  pagesOf,
  STEP_TTL_S,
  string,
} from "./shared.js";

/** The sign-in page, with a problem when a step failed. */
export async function signInAnswer(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  fields: Record<string, string>,
  problem?: string,
) {
  const deps = c.get("deps");
  const { settings } = deps;
  const providers = await offeredProviders(pages.ctx, deps);
  const passkeys = settings.passkeys.enabled;
  // A code by email wherever email sign-ins are on (`EXTERNAL_EMAIL_ENABLED`).
  const emailCodes = settings.signup.emailEnabled;
  const apiBase = look.root.slice(0, -PATH.length);
  return html(
    c,
    look,
    signInPage(
      {
        action: `${look.root}/sign-in`,
        fields,
        problem,
        ...(passkeys ? { passkeyAction: `${look.root}/passkey`, apiBase } : {}),
        ...(emailCodes ? { otpAction: `${look.root}/email-code` } : {}),
        ...(providers.length > 0 ? { providers, providerAction: `${look.root}/provider` } : {}),
        ...(settings.sso.enabled ? { ssoAction: `${look.root}/sso` } : {}),
      },
      look,
    ),
    problem ? 400 : 200,
  );
}

/** What a first factor's form answers. */
export const FIRST_FACTOR_ANSWERS = {
  200: htmlPage("The second factor's form, or the consent form."),
  303: redirect("Consent already given: to the client, with a code."),
  400: htmlPage("The sign-in form again with the problem, or a page naming it."),
  404: OFF,
};

/** The sign-in page (step 1) and its first factors: a password, a passkey. */
export const signInEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/oauth/consent",
      summary: "The hosted sign-in page, where `/oauth/authorize` sends the browser.",
      access: "public",
      query: [
        { name: "authorization_id", description: "The authorization request's id.", required: true },
        { name: "ui_locales", description: "The languages to answer in, by preference (OpenID Connect)." },
      ],
      responses: {
        200: {
          ...htmlPage("The sign-in form."),
          headers: {
            "set-cookie": { description: "The form's value (`authsvc-oauth-consent`, SameSite=Strict)." },
          },
        },
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        (c) => {
          const look = lookOf(pages, c);
          const authorizationId = c.req.query("authorization_id") ?? "";
          if (!authorizationId) return html(c, look, problemPage(look.texts.link_missing_id, look), 400);
          const csrf = randomBytes(32).toString("base64url");
          setCookie(c, CSRF_COOKIE, csrf, {
            httpOnly: true,
            sameSite: "Strict",
            path: look.root,
            maxAge: STEP_TTL_S,
          });
          return signInAnswer(pages, c, look, {
            authorization_id: authorizationId,
            csrf,
            locale: look.locale,
          });
        },
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/sign-in",
      summary: "Signs in with email and password, then shows the second factor's form or the consent form.",
      access: "public",
      limited: true,
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        email: string,
        password: string,
      }),
      responses: FIRST_FACTOR_ANSWERS,
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        ...guessLimit(ctx.rateLimit),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          const refused = await captchaProblem(ctx.captcha, c, form);
          if (refused !== null) return signInAnswer(pages, c, look, fields, refused);
          const signedIn = await signInWithPassword(c.get("deps"), {
            email: form.email ?? "",
            password: form.password ?? "",
          });
          if (!signedIn.ok) return signInAnswer(pages, c, look, fields, signedIn.error.message);
          const { user, session } = signedIn.value;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        }),
      ];
    },
  ),
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/passkey",
      summary:
        "Signs in with the browser's passkey assertion (`passkey.js` fills the form), then as a password sign-in.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        challenge_id: { ...string, description: "The ceremony of `POST /passkeys/authentication/options`." },
        credential: { ...string, description: "The browser's assertion, as JSON." },
      }),
      responses: FIRST_FACTOR_ANSWERS,
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          let credential: unknown = null;
          try {
            credential = JSON.parse(form.credential ?? "");
          } catch {
            return signInAnswer(pages, c, look, fields, look.texts.passkey_failed);
          }
          const signedIn = await signInWithPasskey(c.get("deps"), {
            challengeId: form.challenge_id ?? "",
            credential,
          });
          if (!signedIn.ok) return signInAnswer(pages, c, look, fields, signedIn.error.message);
          const { user, session } = signedIn.value;
          return afterFirstFactor(pages, c, look, form, { user, sessionId: session.id, aal: session.aal });
        }),
      ];
    },
  ),
];
