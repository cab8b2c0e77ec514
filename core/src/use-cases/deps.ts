import type { AuthSettings } from "../domain/settings.js";
import type { Clock } from "../ports/clock.js";
import type { Mailer } from "../ports/mailer.js";
import type { PasswordHasher } from "../ports/password-hasher.js";
import type { Random } from "../ports/random.js";
import type { SecretTokens } from "../ports/secret-tokens.js";
import type { SmsSender } from "../ports/sms-sender.js";
import type { Store } from "../ports/store.js";
import type { TokenSigner } from "../ports/token-signer.js";

/** Every port a use case may need; each use case names the subset it uses with `Pick`. */
export interface AuthDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly random: Random;
  readonly tokens: SecretTokens;
  readonly hasher: PasswordHasher;
  readonly signer: TokenSigner;
  readonly mailer: Mailer;
  readonly sms: SmsSender;
  readonly settings: AuthSettings;
}
