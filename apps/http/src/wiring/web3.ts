import { walletSignatures } from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { WiringContext } from "../modules/module.js";
import { requestLimiterStoreOf } from "./guards.js";

/**
 * The Web3 ports: the wallets' signature check, and the record of the signed messages already used,
 * kept in the request-limit store (Redis or the database) that every instance shares, each message
 * for twice the maximum validity (the whole window in which `Issued At` lets it in).
 */
export function web3PortsOf(ctx: WiringContext): Pick<AuthDeps, "wallets" | "signedMessages"> {
  const store = requestLimiterStoreOf(ctx.config, ctx.sql, ctx.logger);
  const durationSec = Math.max(1, Math.ceil((2 * ctx.config.web3.maxValidityMs) / 1000));
  return {
    wallets: walletSignatures(),
    signedMessages: store.limiter({ name: "web3_message", points: 1, durationSec }),
  };
}
