import { postgresLimiterStore, walletSignatures } from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { WiringContext } from "../module.js";

/** Store errors are logged at most this often: an outage must not flood the log. */
const STORE_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * The Web3 ports: the wallets' signature check, and the record of the signed messages already used,
 * kept in the database's request-limit table (over the server's pool, so nothing more to close) that
 * every instance shares, each message for twice the longer of the chains' maximum validities (the
 * whole window in which `Issued At` lets it in). While the database cannot be reached, each instance remembers alone.
 */
export function web3PortsOf(ctx: WiringContext): Pick<AuthDeps, "wallets" | "signedMessages"> {
  let lastLogged = Number.NEGATIVE_INFINITY;
  const store = postgresLimiterStore(ctx.sql, {
    namespace: ctx.config.db.namespace,
    onStoreError: (error) => {
      const now = Date.now();
      if (now - lastLogged < STORE_ERROR_LOG_INTERVAL_MS) return;
      lastLogged = now;
      ctx.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "signed-message store unreachable: this instance remembers the Web3 messages it saw alone",
      );
    },
  });
  const { ethereum, solana } = ctx.config.web3;
  const longestMs = Math.max(ethereum.maxValidityMs, solana.maxValidityMs);
  const durationSec = Math.max(1, Math.ceil((2 * longestMs) / 1000));
  return {
    // The signature libraries are imported at start only where Web3 sign-in is on.
    wallets: walletSignatures({ eager: ethereum.enabled || solana.enabled }),
    signedMessages: store.limiter({ name: "web3_message", points: 1, durationSec }),
  };
}
