import { type Operation, REDIRECT_QUERY, ref } from "../http/operation.js";
import { SignupBody } from "./signup.js";

/** `POST /signup` (routes/signup.ts). */
export const signupOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/signup",
    summary: "Sign up with an email or a phone and a password; with neither, sign in anonymously.",
    description:
      "Under autoconfirm (or anonymously) a session; otherwise the user, with a confirmation mailed or texted. An address already confirmed answers a user like a new one, with `identities: []`.",
    hooks: true,
    access: "public",
    limited: true,
    query: [REDIRECT_QUERY],
    body: { schema: SignupBody },
    responses: {
      200: {
        description: "A session, or the user waiting for confirmation.",
        body: { anyOf: [ref("Session"), ref("User")] },
      },
    },
    errors: [422],
  },
];
