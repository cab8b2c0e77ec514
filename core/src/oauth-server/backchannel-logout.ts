import type { Clock, Random } from "../kernel/index.js";
import type { IdTokenClaims, IdTokenSigner } from "./ports/id-token-signer.js";
import type { LogoutDeliveries, LogoutDelivery, LogoutPoster } from "./ports/logout-deliveries.js";

/** The event a logout token carries (Back-Channel Logout §2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
/** The `typ` of a logout token's header (Back-Channel Logout §2.4). */
export const LOGOUT_TOKEN_TYPE = "logout+jwt";

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * The claims of a logout token (Back-Channel Logout §2.4): for the client alone, naming the user and
 * the session that ended, with the logout event, valid two minutes, and never a `nonce` (which would
 * let it pass for an ID token).
 */
export function logoutTokenClaims(input: {
  readonly issuer: string;
  readonly clientId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly jti: string;
  readonly now: Date;
}): IdTokenClaims {
  const iat = seconds(input.now);
  return {
    iss: input.issuer,
    aud: [input.clientId],
    iat,
    exp: iat + 120,
    jti: input.jti,
    sub: input.userId,
    sid: input.sessionId,
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}

/** The bounds of delivery (`OAUTH_SERVER_BACKCHANNEL_LOGOUT_*`). */
export interface BackchannelSettings {
  readonly issuer: string;
  /** Attempts before a delivery is given up. */
  readonly maxAttempts: number;
  /** Age (from the session's end) past which a delivery is given up, in ms. */
  readonly maxAgeMs: number;
  /** The delay before the first retry, doubled each time (at most an hour), in ms. */
  readonly retryDelayMs: number;
  /** Deliveries to one client in flight at once, per instance. */
  readonly perClient: number;
  /** Deliveries claimed per pass. */
  readonly batch: number;
  /** How long a claimed delivery is held before another sender may take it, in ms. */
  readonly leaseMs: number;
}

export interface BackchannelDeps {
  readonly deliveries: LogoutDeliveries;
  readonly idTokens: IdTokenSigner;
  readonly post: LogoutPoster;
  readonly clock: Clock;
  readonly random: Random;
  readonly settings: BackchannelSettings;
}

/** What became of one delivery in a pass (ids only: never the token or the URI). */
export interface DeliveryReport {
  readonly id: string;
  readonly clientId: string;
  readonly sessionId: string;
  readonly attempt: number;
  readonly outcome: "delivered" | "retry" | "given_up";
  /** The client's status, or why no answer came ("network", "no_key"). */
  readonly status: number | "network" | "no_key";
}

/** The delay before attempt `attempt + 1`: `retryDelayMs` doubled per attempt made, at most an hour. */
export const retryDelay = (settings: Pick<BackchannelSettings, "retryDelayMs">, attempts: number): number =>
  Math.min(settings.retryDelayMs * 2 ** Math.max(0, attempts - 1), 3_600_000);

async function deliverOne(deps: BackchannelDeps, delivery: LogoutDelivery): Promise<DeliveryReport> {
  const { settings } = deps;
  const now = deps.clock.now();
  const attempt = delivery.attempts + 1;
  const report = { id: delivery.id, clientId: delivery.clientId, sessionId: delivery.sessionId, attempt };
  const giveUp = async (status: DeliveryReport["status"]): Promise<DeliveryReport> => {
    await deps.deliveries.remove(delivery.id);
    return { ...report, outcome: "given_up", status };
  };
  if (now.getTime() - delivery.createdAt.getTime() > settings.maxAgeMs) return giveUp("network");
  let status: DeliveryReport["status"];
  if (!deps.idTokens.available) status = "no_key";
  else {
    const token = await deps.idTokens.sign(
      logoutTokenClaims({
        issuer: settings.issuer,
        clientId: delivery.clientId,
        userId: delivery.userId,
        sessionId: delivery.sessionId,
        jti: deps.random.uuid(),
        now,
      }),
      { type: LOGOUT_TOKEN_TYPE },
    );
    status = await deps
      .post(delivery.uri, `logout_token=${encodeURIComponent(token)}`)
      .catch(() => "network" as const);
  }
  // Back-Channel Logout §2.8: 200 (or 204) is success; anything else is worth another try.
  if (status === 200 || status === 204) {
    await deps.deliveries.remove(delivery.id);
    return { ...report, outcome: "delivered", status };
  }
  if (attempt >= settings.maxAttempts) return giveUp(status);
  await deps.deliveries.retryAt(delivery.id, new Date(now.getTime() + retryDelay(settings, attempt)));
  return { ...report, outcome: "retry", status };
}

/**
 * One pass of the back-channel logout sender: claims the due deliveries (bounded per pass and per
 * client) and POSTs each client a logout token signed with the ID-token key, all at once; a 200 or
 * 204 removes the delivery, anything else (an error status, no answer, no key) makes it due again
 * after a doubling delay, until `maxAttempts` or `maxAgeMs` give it up. Runs after the transactions
 * that recorded them committed, outside any transaction, never in a request.
 */
export async function deliverLogouts(deps: BackchannelDeps): Promise<DeliveryReport[]> {
  const now = deps.clock.now();
  const claimed = await deps.deliveries.claim({
    now,
    leaseUntil: new Date(now.getTime() + deps.settings.leaseMs),
    limit: deps.settings.batch,
    perClient: deps.settings.perClient,
  });
  return Promise.all(claimed.map((delivery) => deliverOne(deps, delivery)));
}
