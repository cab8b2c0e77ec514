import { hibpRange } from "@authsvc/adapters";
import type { LeakedPasswords } from "@authsvc/core/accounts";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";

/** Asked only while `PASSWORD_HIBP_ENABLED` is off, when core never asks: fetches nothing. */
const notAsked: LeakedPasswords = { check: async () => "clean" };

/**
 * The leaked-password corpus: the range API of `PASSWORD_HIBP_URL`. When it cannot be asked the log
 * says so (never the password nor its hash), and whether the password was let through or refused.
 */
export function leakedPasswordsOf(config: Config, logger: Logger): LeakedPasswords {
  const { hibp } = config.password;
  if (!hibp.enabled) return notAsked;
  const outcome = hibp.failClosed ? "the password is refused" : "the password is allowed";
  return hibpRange({
    url: hibp.url,
    userAgent: hibp.userAgent,
    onUnavailable: (reason) =>
      logger.warn({ reason }, `leaked-password check unavailable (${reason}): ${outcome}`),
  });
}
