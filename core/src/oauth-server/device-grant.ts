import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import { defineGrant, type StartedSession, signSession } from "../sessions/index.js";
import type { OAuthAuthorization } from "./authorization.js";
import { DEVICE_CODE_GRANT_TYPE, type OAuthClient } from "./client.js";
import { startClientSession } from "./client-session.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./deps.js";
import { idTokenClaims } from "./id-token.js";
import { issuerOf } from "./query.js";
import type { SessionOAuthTokens, TokenRequestBinding } from "./token-grants.js";

type Deps = Pick<
  OAuthServerDeps,
  "store" | "clock" | "random" | "tokens" | "signer" | "idTokens" | "settings" | "hooks"
>;

const DEVICE_ORIGIN = {
  method: "oauth_provider/device_code",
  providerType: "oauth_provider_device_code",
};
/** RFC 8628 §3.5: each `slow_down` makes the interval 5 seconds longer, for every later poll. */
const SLOW_DOWN_STEP_S = 5;
/** A poll this much early still counts as on time: the network delays polls unevenly. */
const LEEWAY_MS = 500;

/**
 * A poll of a request not yet decided: `slow_down` (and the interval 5 s longer from now on) when it
 * comes before the interval since the previous one, else `authorization_pending`. Either way the poll
 * is recorded; the failure is returned, so the transaction commits it.
 */
async function pendingPoll(
  repos: OAuthServerRepositories,
  authorization: OAuthAuthorization & { device: NonNullable<OAuthAuthorization["device"]> },
  now: Date,
): Promise<Result<never>> {
  const { device } = authorization;
  const early =
    device.lastPolledAt !== null &&
    now.getTime() - device.lastPolledAt.getTime() < device.interval * 1000 - LEEWAY_MS;
  const interval = early ? device.interval + SLOW_DOWN_STEP_S : device.interval;
  await repos.oauthAuthorizations.update({
    ...authorization,
    device: { ...device, interval, lastPolledAt: now },
  });
  return err(early ? failures.deviceSlowDown(interval) : failures.deviceAuthorizationPending());
}

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4): the device's poll. Its
 * request is locked for the poll, so several instances answering one device agree: the interval
 * and the last poll live in the row, and once the user approved, the first poll spends the request
 * in the transaction that starts the session (bound to the client, as the code flow's), and every
 * later or concurrent one is refused (`invalid_grant`). Another client's device code is refused
 * before anything about the request is told or changed. A poll with a DPoP proof binds the session
 * it starts and its access tokens to that key (`cnf.jkt`), as the code flow's exchange does.
 */
export async function pollDeviceCode(
  deps: Deps,
  input: TokenRequestBinding & { readonly client: OAuthClient; readonly deviceCode: string },
): Promise<Result<SessionOAuthTokens>> {
  if (!input.deviceCode) return err(failures.deviceCodeMissing());
  const now = deps.clock.now();
  const { client } = input;
  const started = await transactionRollingBackOn(
    deps.store,
    async (repos): Promise<Result<{ started: StartedSession; authTime: Date; openid: boolean }>> => {
      const found = await repos.oauthAuthorizations.lockByDeviceCode(deps.tokens.hash(input.deviceCode));
      if (found === null || !found.device) return err(failures.deviceCodeInvalid());
      const authorization = { ...found, device: found.device };
      if (authorization.clientId !== client.id) return err(failures.deviceCodeOfAnotherClient());
      if (authorization.sessionId) return err(failures.deviceCodeSpent());
      if (authorization.expiresAt.getTime() <= now.getTime()) return err(failures.deviceCodeExpired());
      if (authorization.status === "denied") return err(failures.deviceAccessDenied());
      if (authorization.status !== "approved" || authorization.userId === null)
        return pendingPoll(repos, authorization, now);
      // Approval recorded the consent: none now means the user revoked the grant since.
      if ((await repos.oauthConsents.findActive(authorization.userId, client.id)) === null)
        return err(failures.deviceAccessDenied());
      const openid = authorization.scope.split(" ").includes("openid");
      // Refused before anything is spent: the operator's configuration, not the client, is at fault.
      if (openid && !deps.idTokens.available) throw failures.idTokenKeyMissing();
      const sessionId = deps.random.uuid();
      if (!(await repos.oauthAuthorizations.spend(authorization.id, sessionId)))
        return err(failures.deviceCodeSpent());
      const session = await startClientSession(repos, deps, {
        client,
        authorization,
        userId: authorization.userId,
        sessionId,
        origin: DEVICE_ORIGIN,
        dpop: input.dpop,
        now,
      });
      if (!session.ok) return session;
      return ok({
        started: session.value,
        authTime: authorization.authTime ?? now,
        openid,
      });
    },
  );
  if (!started.ok) return started;
  const { session, user } = started.value.started;
  // The custom access token hook runs after the transaction committed (see signSession).
  const signed = await signSession(deps, started.value.started);
  if (!signed.ok) return signed;
  const scope = session.scopes ?? "";
  const idToken = started.value.openid
    ? await deps.idTokens.sign(
        idTokenClaims({
          user,
          clientId: client.id,
          scope,
          nonce: null,
          authTime: started.value.authTime,
          session,
          now,
          issuer: issuerOf(deps.settings),
        }),
      )
    : undefined;
  return ok({
    accessToken: signed.value.accessToken,
    expiresIn: signed.value.expiresIn,
    refreshToken: signed.value.refreshToken,
    scope,
    ...(idToken ? { idToken } : {}),
    ...(session.dpopJkt ? { boundTo: session.dpopJkt } : {}),
  });
}

/** The device grant at `POST /oauth/token`, beside the code flow's in the one registry. */
export const deviceCodeGrant = defineGrant(DEVICE_CODE_GRANT_TYPE, pollDeviceCode);
