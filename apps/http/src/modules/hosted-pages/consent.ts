import type { User } from "@authsvc/core/accounts";
import { authorizationDetails, clientIdOf, decideConsent, scopesOf } from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { redirect } from "../../http/operation.js";
import { endpoint, type ModuleEndpoint } from "../module.js";
import type { Look } from "./layout.js";
import { consentPage, problemPage } from "./pages.js";
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
  toClient,
} from "./shared.js";

/** The consent form, or the client's redirect when an earlier consent covers the request. */
export async function consentStep(
  pages: Pages,
  c: Context<AppEnv>,
  look: Look,
  form: Record<string, string>,
  user: User,
  sessionId: string,
) {
  const fields = carried(form, look);
  const found = await authorizationDetails(c.get("deps"), {
    authorizationId: fields.authorization_id,
    userId: user.id,
    sessionId,
  });
  if (!found.ok) return html(c, look, problemPage(found.error.message, look), 400);
  if (found.value.kind === "redirect") return toClient(c, found.value.redirectUrl);
  const { client, authorization } = found.value;
  const proof = sign(pages.ctx.auth, "oauth-consent", fields, [user.id, sessionId, expiry()]);
  return html(
    c,
    look,
    consentPage(
      {
        action: `${look.root}/decision`,
        fields: { ...fields, proof },
        clientName: client.name ?? clientIdOf(client),
        clientUri: client.uri,
        logoUri: client.logoUri,
        documentHost: client.metadataUrl ? new URL(client.metadataUrl).host : null,
        redirectUri: authorization.redirectUri,
        userEmail: user.email ?? user.phone ?? "",
        scopes: scopesOf(authorization.scope),
        descriptions: Object.fromEntries(
          found.value.scopes.flatMap((s) => (s.description === null ? [] : [[s.scope, s.description]])),
        ),
        resource: authorization.resource,
      },
      look,
    ),
  );
}

/** The user's decision on the consent form. */
export const consentEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/oauth/consent/decision",
      summary: "The user's decision (`approve` or `deny`), with the proof of the sign-in steps.",
      access: "public",
      body: formBody({
        authorization_id: string,
        csrf: CSRF,
        locale: LOCALE_FIELD,
        proof: {
          ...string,
          description: "The signed-in step's proof, bound to the request, user and session.",
        },
        action: { ...string, description: "`approve` or `deny`." },
      }),
      responses: {
        303: redirect("To the client, with a code or `error=access_denied`."),
        400: PROBLEM,
        404: OFF,
      },
    },
    (ctx) => {
      const pages = pagesOf(ctx);
      return [
        gate(pages),
        formStep(pages, async (c, form, look) => {
          const authorizationId = form.authorization_id ?? "";
          const parts = opened(ctx.auth, "oauth-consent", carried(form, look), form.proof ?? "", 3);
          if (parts === null) return expired(c, look);
          // The session the user signed in with on these pages: its level goes into the code.
          const [userId = "", sessionId = ""] = parts;
          const decided = await decideConsent(c.get("deps"), {
            authorizationId,
            userId,
            sessionId,
            action: form.action ?? "",
          });
          if (!decided.ok) return html(c, look, problemPage(decided.error.message, look), 400);
          return toClient(c, decided.value.redirectUrl);
        }),
      ];
    },
  ),
];
