import type { User } from "@authsvc/core/accounts";
import { challengeFactor, verifyFactor } from "@authsvc/core/mfa";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { clientAddress } from "../../http/client-address.js";
import { redirect } from "../../http/operation.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import { htmlPage } from "../oauth-server/oauth.openapi-schemas.js";
import { consentStep } from "./consent.js";
import type { Look } from "./layout.js";
import { mfaPage, problemPage } from "./pages.js";
import {
  CSRF,
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
  PROBLEM,
  pagesOf,
  sign,
  string,
} from "./shared.js";

/**
 * Once the user proved who they are (a password, an email code, a passkey, a provider) in the
 * session `sessionId`: the second factor when they have a verified one, else the consent step.
 */
export async function afterFirstFactor(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  form: Record<string, string>,
  signedIn: { readonly user: User; readonly sessionId: string; readonly aal: string },
) {
  const run = c.get("deps");
  const { user, sessionId } = signedIn;
  if (signedIn.aal !== "aal2") {
    const factors = (await run.store.factors.listByUser(user.id)).filter((f) => f.status === "verified");
    if (factors.length > 0) {
      const factor =
        factors.find((f) => f.factorType === "totp") ?? factors.find((f) => f.factorType === "phone");
      if (factor === undefined) return html(c, look, problemPage(look.texts.form_expired, look), 400);
      const challenged = await challengeFactor(run, {
        user,
        factorId: factor.id,
        ipAddress: clientAddress(c) ?? "",
      });
      if (!challenged.ok) return html(c, look, problemPage(challenged.error.message, look), 400);
      const fields = carried(form, look);
      const proof = sign(pages.ctx.auth, "oauth-consent-mfa", fields, [
        user.id,
        sessionId,
        factor.id,
        challenged.value.id,
        expiry(),
      ]);
      return html(c, look, mfaPage({ action: `${look.root}/mfa`, fields: { ...fields, proof } }, look));
    }
  }
  return consentStep(pages, c, look, form, user, sessionId);
}

/** The second factor's step, between the first factor and consent. */
export const mfaStepEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/mfa",
      summary: "The second factor's code (TOTP, or a texted code), then the consent form.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        proof: {
          ...string,
          description: "The sign-in step's proof, bound to the request, user and challenge.",
        },
        code: string,
      }),
      responses: {
        200: htmlPage("The consent form, or the code's form again with the problem."),
        303: redirect("Consent already given: to the client, with a code."),
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const fields = carried(form, look);
          const parts = opened(ctx.auth, "oauth-consent-mfa", fields, form.proof ?? "", 5);
          if (parts === null) return expired(c, look);
          const [userId = "", sessionId = "", factorId = "", challengeId = ""] = parts;
          const run = c.get("deps");
          const user = await run.store.users.findById(userId);
          if (user === null) return expired(c, look);
          const verified = await verifyFactor(run, {
            user,
            sessionId,
            factorId,
            challengeId,
            code: (form.code ?? "").trim(),
            ipAddress: clientAddress(c) ?? "",
          });
          if (!verified.ok)
            return html(
              c,
              look,
              mfaPage(
                {
                  action: `${look.root}/mfa`,
                  fields: { ...fields, proof: form.proof ?? "" },
                  problem: verified.error.message,
                },
                look,
              ),
              400,
            );
          return afterFirstFactor(pages, c, look, form, {
            user,
            sessionId,
            aal: verified.value.session.aal,
          });
        }),
      ];
    },
  ),
];
