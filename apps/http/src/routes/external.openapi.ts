import { type Operation, redirect, ref } from "../http/operation.js";

const authorizeQuery = [
  { name: "provider", description: "The provider's name (`github`, `google`, …).", required: true },
  { name: "scopes", description: "Scopes to ask for besides the provider's defaults, space-separated." },
  {
    name: "redirect_to",
    description: "Where the browser lands afterwards; must match `SITE_URL` or `URI_ALLOW_LIST`.",
  },
  {
    name: "code_challenge",
    description: "PKCE: the challenge; the session is then exchanged for a `?code=`.",
  },
  {
    name: "code_challenge_method",
    description: "PKCE: `s256` or `plain`.",
    schema: { enum: ["s256", "plain", "S256"] },
  },
];
const callbackFields = {
  state: { type: "string" },
  code: { type: "string" },
  error: { type: "string" },
  error_description: { type: "string" },
  user: { type: "string", description: "Apple's first-sign-in user (JSON), with `response_mode=form_post`." },
};
const toRedirect = redirect("To `redirect_to` with the session in the fragment, a `?code=`, or the error.");

/** External sign-in and identity linking (routes/external.ts). */
export const externalOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/authorize",
    summary: "Starts a sign-in with an external provider: to the provider's consent page.",
    access: "public",
    limited: true,
    query: authorizeQuery,
    responses: { 302: redirect("To the provider.") },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/callback",
    summary: "The provider's answer: the browser goes on to `redirect_to`.",
    access: "public",
    query: Object.keys(callbackFields).map((name) => ({ name, description: `The provider's \`${name}\`.` })),
    responses: { 302: toRedirect, 303: redirect("To `SITE_URL` with the error: the state was unknown.") },
  },
  {
    method: "post",
    path: "/callback",
    summary: "The provider's answer posted as a form (`response_mode=form_post`).",
    access: "public",
    body: { schema: { type: "object", properties: callbackFields }, form: true },
    responses: { 302: toRedirect, 303: redirect("To `SITE_URL` with the error: the state was unknown.") },
  },
  {
    method: "get",
    path: "/user/identities/authorize",
    summary: "Links an external provider's account to the signed-in user (`MANUAL_LINKING_ENABLED`).",
    access: "user",
    query: [
      ...authorizeQuery,
      { name: "skip_http_redirect", description: "`true`: answer `{url}` instead of redirecting." },
    ],
    responses: {
      200: { description: "With `skip_http_redirect=true`: where to send the browser.", body: ref("Url") },
      302: redirect("To the provider."),
    },
    errors: [404],
  },
  {
    method: "delete",
    path: "/user/identities/{identity_id}",
    summary: "Unlinks one of the signed-in user's identities (not the last one).",
    access: "user",
    pathParameters: [{ name: "identity_id", description: "The identity's `identity_id`." }],
    responses: { 200: { description: "Unlinked.", body: ref("Empty") } },
    errors: [404, 422],
  },
];
