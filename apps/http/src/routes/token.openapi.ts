import { type Operation, ref } from "../http/operation.js";

/** `POST /token` (routes/token.ts); its body is the requested grant's (routes/grants/). */
export const tokenOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/token",
    summary:
      "Sign in or refresh: a session for a password, a refresh token, a PKCE code, an ID token or a wallet signature.",
    hooks: true,
    access: "public",
    limited: true,
    query: [{ name: "grant_type", description: "The grant type; its fields make the body.", required: true }],
    responses: {
      200: {
        description:
          "A new session (after a PKCE exchange of an external sign-in, with the provider's tokens).",
        body: ref("ExchangedSession"),
      },
      400: {
        description:
          "An error of the catalogue, or an OAuth-style error where the reference answers one (a missing `refresh_token`, a bad ID token).",
        body: ref("OAuthError"),
        orError: true,
      },
    },
    errors: [403, 404, 422],
  },
];
