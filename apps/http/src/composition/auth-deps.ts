import { cryptoRandom, type Sql, systemClock } from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { DeliveryQueue } from "@authsvc/core/kernel";
import type { Logger } from "pino";
import type { Config } from "../config/types.js";
import { storeOf } from "../infrastructure/database/database.js";
import { hooksOf } from "../infrastructure/hooks/dispatcher.js";
import { hasherOf } from "../infrastructure/jwt/crypto.js";
import type { HttpModule, SharedPorts } from "../modules/module.js";
import { authSettingsOf } from "./auth-settings.js";
import { MODULES } from "./modules.js";

/**
 * Builds the ports the use cases run with: the shared ones here (the store, the clock, randomness,
 * password hashing, the delivery queue, the hook dispatcher, the settings), then each module's own
 * (its `ports`), merged in the list's order.
 */
export function authDepsOf(
  config: Config,
  sql: Sql,
  logger: Logger,
  deliveries: DeliveryQueue,
  modules: readonly HttpModule[] = MODULES,
): AuthDeps {
  const store = storeOf(config, sql);
  const shared: SharedPorts = {
    store,
    clock: systemClock(),
    random: cryptoRandom(),
    hasher: hasherOf(),
    deliveries,
    hooks: hooksOf(config, store, logger),
    settings: authSettingsOf(config, modules),
  };
  const ctx = { config, sql, logger, shared };
  // auth-deps.test.ts checks that together the modules give every port.
  return Object.assign({}, shared, ...modules.map((module) => module.ports?.(ctx))) as AuthDeps;
}
