import {
  type AuthDeps,
  challengeFactor,
  enrollFactor,
  failures,
  isUuid,
  unenrollFactor,
  verifyFactor,
} from "@authsvc/core";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { parseBody, text, unwrap } from "../http/body.js";
import { clientAddress } from "../http/client-address.js";
import { requireUser } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { sessionJson } from "../http/presenters/session-json.js";

export const EnrollBody = v.object({ factor_type: text, friendly_name: text, issuer: text, phone: text });
export const ChallengeBody = v.object({ channel: text });
/** WebAuthn's answer: `create` (registration) or `request` (assertion), with the browser's response. */
const WebauthnAnswer = v.optional(
  v.nullable(v.object({ type: text, credential_response: v.optional(v.unknown()) })),
);
export const VerifyBody = v.object({ challenge_id: text, code: text, webauthn: WebauthnAnswer });

/** The address a challenge is bound to: the client's (http/client-address.ts). */
const callerIp = (c: Context<AppEnv>) => clientAddress(c) ?? "";

/** `POST /factors`, `POST /factors/{id}/challenge`, `POST /factors/{id}/verify`, `DELETE /factors/{id}`. */
export const factorRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  const caller = (c: Context<AppEnv>) => {
    const { user, sessionId } = c.get("auth");
    return { user, sessionId, factorId: c.req.param("factor_id") ?? "" };
  };
  return new Hono<AppEnv>()
    .post("/factors", auth, async (c) => {
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
    })
    .post("/factors/:factor_id/challenge", auth, async (c) => {
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
    })
    .post("/factors/:factor_id/verify", auth, async (c) => {
      const body = parseBody(VerifyBody, await readJsonObject(c));
      const challengeId = body.challenge_id ?? "";
      if (!isUuid(challengeId)) throw failures.challengeIdNotUuid();
      const webauthn = body.webauthn
        ? { type: body.webauthn.type ?? "", credentialResponse: body.webauthn.credential_response }
        : undefined;
      const input = { ...caller(c), challengeId, code: body.code ?? "", ipAddress: callerIp(c), webauthn };
      return c.json(sessionJson(unwrap(await verifyFactor(c.get("deps"), input))));
    })
    .delete("/factors/:factor_id", auth, async (c) => {
      return c.json(unwrap(await unenrollFactor(c.get("deps"), caller(c))));
    });
};
