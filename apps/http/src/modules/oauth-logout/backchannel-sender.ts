import {
  cryptoRandom,
  guardedFetch,
  idTokenSigner,
  postgresLogoutDeliveries,
  type Sql,
  systemClock,
} from "@authsvc/adapters";
import {
  type BackchannelDeps,
  deliverLogouts,
  issuerOf,
  type LogoutPoster,
} from "@authsvc/core/oauth-server";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";

/** Deliveries claimed per pass. */
const BATCH = 50;

/** The instance's back-channel logout sender: started by the composition root, stopped on shutdown. */
export interface BackchannelSender {
  start(): void;
  /** Stops after the pass in flight, if any; resolves once it is done. */
  stop(): Promise<void>;
  /** Runs one pass now (tests, and the loop). */
  pass(): Promise<number>;
}

/** POSTs `logout_token=…` through the guarded fetch: no redirect followed, bounded in time, answer discarded. */
export function logoutPoster(config: Config): LogoutPoster {
  const fetch = guardedFetch({
    allowLoopbackForTests: config.oauthLogout.allowLoopbackForTests,
    maxAnswerBytes: 4096,
  });
  return async (uri, form) => {
    const response = await fetch(uri, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "cache-control": "no-store" },
      body: form,
      redirect: "manual",
      signal: AbortSignal.timeout(config.oauthLogout.backchannelTimeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.status;
  };
}

/** The ports of `deliverLogouts` over `sql` and `config`. */
export function backchannelDeps(
  config: Config,
  sql: Sql,
  post: LogoutPoster = logoutPoster(config),
): BackchannelDeps {
  const settings = config.oauthLogout;
  return {
    deliveries: postgresLogoutDeliveries(sql, { namespace: config.db.namespace }),
    idTokens: idTokenSigner(config.jwt.keys),
    post,
    clock: systemClock(),
    random: cryptoRandom(),
    settings: {
      issuer: issuerOf({ jwt: { issuer: config.jwt.issuer }, apiExternalUrl: config.api.externalUrl }),
      maxAttempts: settings.backchannelMaxAttempts,
      maxAgeMs: settings.backchannelMaxAgeMs,
      retryDelayMs: settings.backchannelRetryDelayMs,
      perClient: settings.backchannelConcurrency,
      batch: BATCH,
      leaseMs: settings.backchannelTimeoutMs * 2 + 10_000,
    },
  };
}

/**
 * Every `OAUTH_SERVER_BACKCHANNEL_LOGOUT_INTERVAL`, delivers the logouts recorded (and committed) since:
 * outside any request and any transaction, so that no slow client holds a request or a connection.
 * A full pass is followed at once by another. Logged with ids only: never the token or the URI.
 */
export function backchannelSender(
  config: Config,
  sql: Sql,
  logger: Logger,
  deps = backchannelDeps(config, sql),
): BackchannelSender {
  const intervalMs = config.oauthLogout.backchannelIntervalMs;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const pass = async (): Promise<number> => {
    const reports = await deliverLogouts(deps);
    for (const r of reports) {
      const fields = {
        delivery_id: r.id,
        client_id: r.clientId,
        session_id: r.sessionId,
        attempt: r.attempt,
        status: r.status,
      };
      if (r.outcome === "delivered") logger.info(fields, "back-channel logout delivered");
      else if (r.outcome === "retry") logger.warn(fields, "back-channel logout failed; retried later");
      else logger.warn(fields, "back-channel logout given up");
    }
    return reports.length;
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => {
          logger.warn({ err: error }, "back-channel logout pass failed");
          return 0;
        })
        .then((n) => {
          running = undefined;
          if (!stopped) schedule(n >= BATCH ? 0 : intervalMs);
        });
    }, delayMs);
    timer.unref();
  };
  return {
    pass,
    start() {
      if (!config.oauthServer.enabled || stopped || timer) return;
      schedule(intervalMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
