import {
  type AuthDeps,
  deletePasskey,
  failures,
  finishPasskeyRegistration,
  listPasskeys,
  type Passkey,
  renamePasskey,
  signInWithPasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "@authsvc/core";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { parseBody, text, unwrap } from "../http/body.js";
import { requireUser } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { sessionJson } from "../http/presenters/session-json.js";

export const PasskeyVerifyBody = v.object({ challenge_id: text, credential: v.optional(v.unknown()) });
export const PasskeyRenameBody = v.object({ friendly_name: text });

/** The reference's `PasskeyListItem`: the name and last use only when there are any. */
export function passkeyJson(passkey: Passkey) {
  return {
    id: passkey.id,
    ...(passkey.friendlyName !== "" ? { friendly_name: passkey.friendlyName } : {}),
    created_at: passkey.createdAt.toISOString(),
    ...(passkey.lastUsedAt !== null ? { last_used_at: passkey.lastUsedAt.toISOString() } : {}),
  };
}

const ceremonyJson = (started: { challengeId: string; options: unknown; expiresAt: number }) => ({
  challenge_id: started.challengeId,
  options: started.options,
  expires_at: started.expiresAt,
});

/** The challenge id and credential of a verify body; either missing is `400 validation_failed`. */
async function answerOf(c: Context<AppEnv>) {
  const body = parseBody(PasskeyVerifyBody, await readJsonObject(c));
  if (body.challenge_id === undefined || body.challenge_id === "") throw failures.passkeyChallengeIdInvalid();
  if (body.credential === undefined || body.credential === null) throw failures.passkeyCredentialMissing();
  return { challengeId: body.challenge_id, credential: body.credential };
}

/**
 * `/passkeys/registration/{options,verify}` (signed in), `/passkeys/authentication/{options,verify}`
 * (anyone), and the caller's `GET /passkeys`, `PATCH` and `DELETE /passkeys/{id}`.
 */
export const passkeyRoutes = (deps: AuthDeps) => {
  const auth = requireUser(deps);
  const caller = (c: Context<AppEnv>) => {
    const { user, sessionId } = c.get("auth");
    return { user, sessionId };
  };
  return new Hono<AppEnv>()
    .post("/passkeys/registration/options", auth, async (c) => {
      await readJsonObject(c);
      return c.json(ceremonyJson(unwrap(await startPasskeyRegistration(c.get("deps"), caller(c)))));
    })
    .post("/passkeys/registration/verify", auth, async (c) => {
      const input = { ...caller(c), ...(await answerOf(c)) };
      const passkey = unwrap(await finishPasskeyRegistration(c.get("deps"), input));
      const { last_used_at: _, ...created } = passkeyJson(passkey);
      return c.json(created);
    })
    .post("/passkeys/authentication/options", async (c) => {
      await readJsonObject(c);
      return c.json(ceremonyJson(unwrap(await startPasskeySignIn(c.get("deps")))));
    })
    .post("/passkeys/authentication/verify", async (c) => {
      const input = await answerOf(c);
      return c.json(sessionJson(unwrap(await signInWithPasskey(c.get("deps"), input))));
    })
    .get("/passkeys", auth, async (c) => {
      const passkeys = unwrap(await listPasskeys(c.get("deps"), caller(c)));
      return c.json(passkeys.map(passkeyJson));
    })
    .patch("/passkeys/:passkey_id", auth, async (c) => {
      const body = parseBody(PasskeyRenameBody, await readJsonObject(c));
      const input = {
        ...caller(c),
        passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase(),
        friendlyName: body.friendly_name ?? "",
      };
      return c.json(passkeyJson(unwrap(await renamePasskey(c.get("deps"), input))));
    })
    .delete("/passkeys/:passkey_id", auth, async (c) => {
      const input = { ...caller(c), passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase() };
      unwrap(await deletePasskey(c.get("deps"), input));
      return c.body(null, 204);
    });
};
