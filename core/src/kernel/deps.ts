import type { Clock } from "./ports/clock.js";
import type { Random } from "./ports/random.js";
import type { SecretTokens } from "./ports/secret-tokens.js";
import type { KernelSettings } from "./settings.js";

/** The ports every slice may use. */
export interface KernelDeps {
  readonly clock: Clock;
  readonly random: Random;
  readonly tokens: SecretTokens;
  readonly settings: KernelSettings;
}
