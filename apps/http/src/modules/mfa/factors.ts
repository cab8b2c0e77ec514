import { failures } from "@authsvc/core";
import { isUuid } from "@authsvc/core/kernel";
import { challengeFactor, enrollFactor, unenrollFactor, verifyFactor } from "@authsvc/core/mfa";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { clientAddress } from "../../http/client-address.js";
import { requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { ref } from "../../http/operation.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

export const EnrollBody = v.object({ factor_type: text, friendly_name: text, issuer: text, phone: text });
export const ChallengeBody = v.object({ channel: text });
/** WebAuthn's answer: `create` (registration) or `request` (assertion), with the browser's response. */
const WebauthnAnswer = v.optional(
  v.nullable(v.object({ type: text, credential_response: v.optional(v.unknown()) })),
);
export const VerifyBody = v.object({ challenge_id: text, code: text, webauthn: WebauthnAnswer });

/** The address a challenge is bound to: the client's (http/client-address.ts). */
const callerIp = (c: Context<AppEnv>) => clientAddress(c) ?? "";

const factorId = [{ name: "factor_id", description: "The factor's id." }];

const caller = (c: Context<AppEnv>) => {
  const { user, sessionId } = c.get("auth");
  return { user, sessionId, factorId: c.req.param("factor_id") ?? "" };
};
const signedIn = ({ auth }: ModuleContext) => requireUser(auth);

/**
 * The signed-in user's second factors (docs/mfa.md): `POST /factors`, `POST /factors/{id}/challenge`,
 * `POST /factors/{id}/verify`, `DELETE /factors/{id}`.
 */
export const factorEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
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
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(EnrollBody, await readJsonObject(c));
        const { user, sessionId } = c.get("auth");
        const input = {
          user,
          sessionId,
          factorType: body.factor_type ?? "",
          friendlyName: body.friendly_name,
          issuer: body.issuer,
          phone: body.phone,
        };
        const enrolled = unwrap(await enrollFactor(c.get("deps"), input));
        const { factor, totp } = enrolled;
        return c.json({
          id: factor.id,
          type: factor.factorType,
          friendly_name: factor.friendlyName,
          ...(totp ? { totp: { qr_code: totp.qrCode, secret: totp.secret, uri: totp.uri } } : {}),
          ...(enrolled.phone ? { phone: enrolled.phone } : {}),
        });
      },
    ],
  ),
  endpoint(
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
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(ChallengeBody, await readJsonObject(c));
        const input = { ...caller(c), ipAddress: callerIp(c), channel: body.channel };
        const challenge = unwrap(await challengeFactor(c.get("deps"), input));
        return c.json({
          id: challenge.id,
          type: challenge.type,
          expires_at: challenge.expiresAt,
          // The reference wraps WebAuthn options in `publicKey`, as `navigator.credentials` takes them.
          ...(challenge.webauthn
            ? {
                webauthn: {
                  type: challenge.webauthn.type,
                  credential_options: { publicKey: challenge.webauthn.options },
                },
              }
            : {}),
        });
      },
    ],
    { limit: { name: "factor_challenge", per5Min: "mfa" } },
  ),
  endpoint(
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
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(VerifyBody, await readJsonObject(c));
        const challengeId = body.challenge_id ?? "";
        if (!isUuid(challengeId)) throw failures.challengeIdNotUuid();
        const webauthn = body.webauthn
          ? { type: body.webauthn.type ?? "", credentialResponse: body.webauthn.credential_response }
          : undefined;
        const input = { ...caller(c), challengeId, code: body.code ?? "", ipAddress: callerIp(c), webauthn };
        return c.json(sessionJson(unwrap(await verifyFactor(c.get("deps"), input))));
      },
    ],
    { limit: { name: "factor_verify", per5Min: "mfa" } },
  ),
  endpoint(
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
    (ctx) => [signedIn(ctx), async (c) => c.json(unwrap(await unenrollFactor(c.get("deps"), caller(c))))],
  ),
];
