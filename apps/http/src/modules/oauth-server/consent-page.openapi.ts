import { jsonObject, type Operation, redirect } from "../../http/operation.js";
import { htmlPage } from "./oauth.openapi-schemas.js";

const string = { type: "string" } as const;
const form = (properties: Record<string, { type: string; description?: string }>) => ({
  schema: jsonObject(properties),
  contentTypes: ["application/x-www-form-urlencoded"],
});
const problem = htmlPage("A page naming the problem (a missing or expired form, a refused request).");
const off = htmlPage("The page is off (`OAUTH_SERVER_ENABLED`, `OAUTH_SERVER_AUTHORIZATION_PATH` set).");
const csrf = { ...string, description: "The form's value, repeated from its SameSite=Strict cookie." };

/** The built-in sign-in and consent page (routes/oauth/consent-page.ts): HTML forms, no script. */
export const consentPageOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/oauth/consent",
    summary: "The built-in page's sign-in form, where `/oauth/authorize` sends the browser.",
    access: "public",
    query: [{ name: "authorization_id", description: "The authorization request's id.", required: true }],
    responses: {
      200: {
        ...htmlPage("The sign-in form."),
        headers: {
          "set-cookie": { description: "The form's value (`authsvc-oauth-consent`, SameSite=Strict)." },
        },
      },
      400: problem,
      404: off,
    },
  },
  {
    method: "post",
    path: "/oauth/consent/sign-in",
    summary: "Signs in with email and password, then shows the consent form.",
    access: "public",
    limited: true,
    body: form({ authorization_id: string, csrf, email: string, password: string }),
    responses: {
      200: htmlPage("The consent form."),
      302: redirect("Consent already given: to the client, with a code."),
      400: htmlPage("The sign-in form again with the problem, or a page naming it."),
      404: off,
    },
  },
  {
    method: "post",
    path: "/oauth/consent/decision",
    summary: "The user's decision (`approve` or `deny`), with the proof of the sign-in step.",
    access: "public",
    body: form({
      authorization_id: string,
      csrf,
      proof: { ...string, description: "The signed-in step's proof, bound to the request and user." },
      action: { ...string, description: "`approve` or `deny`." },
    }),
    responses: {
      302: redirect("To the client, with a code or `error=access_denied`."),
      400: problem,
      404: off,
    },
  },
];
