import { type Operation, ref } from "../http/operation.js";
import { closed } from "../openapi/schemas.js";
import { ChallengeBody, EnrollBody, VerifyBody } from "./factors.js";

const factorId = [{ name: "factor_id", description: "The factor's id." }];

/** The signed-in user's second factors (routes/factors.ts; docs/mfa.md). */
export const factorOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/factors",
    summary: "Enrolls a TOTP or phone factor, unverified until its first verification.",
    access: "user",
    body: {
      schema: EnrollBody,
      fields: {
        factor_type: { enum: ["totp", "phone"], description: "Required." },
        issuer: { description: "TOTP: the issuer shown by the authenticator app." },
        phone: { description: "Phone: the number codes are texted to (E.164)." },
      },
    },
    responses: { 200: { description: "The new factor.", body: ref("EnrolledFactor") } },
    errors: [422],
  },
  {
    method: "post",
    path: "/factors/{factor_id}/challenge",
    summary: "Opens a challenge of a factor (for a phone factor, the code is texted).",
    hooks: true,
    access: "user",
    limited: true,
    pathParameters: factorId,
    body: {
      schema: ChallengeBody,
      fields: { channel: { enum: ["sms"], description: "Phone factors only." } },
    },
    responses: { 200: { description: "The challenge.", body: ref("Challenge") } },
    errors: [404, 422],
  },
  {
    method: "post",
    path: "/factors/{factor_id}/verify",
    summary: "Verifies a challenge's code: the session is raised to `aal2`.",
    hooks: true,
    access: "user",
    limited: true,
    pathParameters: factorId,
    body: {
      schema: VerifyBody,
      fields: {
        challenge_id: { description: "Required: the challenge's id." },
        code: { description: "Required." },
      },
    },
    responses: { 200: { description: "The session, at `aal2`.", body: ref("Session") } },
    errors: [404, 422],
  },
  {
    method: "delete",
    path: "/factors/{factor_id}",
    summary: "Removes one of the user's factors (a verified one from an `aal2` session).",
    access: "user",
    pathParameters: factorId,
    responses: {
      200: { description: "Removed.", body: closed({ id: { type: "string", format: "uuid" } }) },
    },
    errors: [404, 422],
  },
];
