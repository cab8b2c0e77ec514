import {
  afterFirstSignInRaces,
  commitThenSend,
  externalAccount,
  vetExternalAccount,
} from "../external/index.js";
import { failures } from "../failures.js";
import { err, isRedirectAllowed, Outbox, ok, type Result } from "../kernel/index.js";
import {
  defineGrant,
  issueSession,
  type SessionTokens,
  type StartedSession,
  signSession,
} from "../sessions/index.js";
import type { Web3Deps, Web3Repositories } from "./deps.js";
import { parseSiweMessage, type SiweMessage, siweTimeProblem } from "./siwe-message.js";

/** A signed sign-in message (EIP-4361) and the wallet's signature of it. */
export interface Web3SignInInput {
  readonly chain: string;
  readonly message: string;
  readonly signature: string;
}

const MIN_MESSAGE = 64;
const MAX_MESSAGE = 20 * 1024;

type Deps = Pick<
  Web3Deps,
  "store" | "clock" | "random" | "tokens" | "signer" | "mailer" | "settings" | "wallets" | "signedMessages"
> &
  Partial<Pick<Web3Deps, "hooks">>;

/** Whether the message's URI and domain may sign in here (the reference's checks, in its order). */
function siteRefusal(deps: Pick<Deps, "settings">, message: SiweMessage) {
  const { uri } = message;
  const allow = { siteUrl: deps.settings.siteUrl, allowList: deps.settings.uriAllowList };
  const local = uri.host === "localhost";
  if (uri.scheme !== "https" && !local) return failures.web3UriInsecure();
  const uriText = `${uri.scheme}://${uri.authority}${uri.rest}`;
  if (!isRedirectAllowed(uriText, allow)) return failures.web3UriNotAllowed();
  if (!local) {
    if (uri.authority !== message.domain.toLowerCase()) return failures.web3DomainMismatch();
    if (!isRedirectAllowed(`https://${message.domain}/`, allow)) return failures.web3DomainMismatch();
  }
  return null;
}

/**
 * `POST /token?grant_type=web3`: signs in with an Ethereum wallet's EIP-191 signature of an EIP-4361
 * message (`EXTERNAL_WEB3_ETHEREUM_ENABLED`). The message is parsed strictly (400
 * `validation_failed` with the parser's sentence), the signature checked against its address, then —
 * each refusal an OAuth `invalid_grant` — its URI (https unless on localhost, on the redirect allow
 * list), its domain (the URI's host, allowed), its time window (Not Before, Expiration Time, and
 * `Issued At` within the maximum validity either way), and that it was not used before: a signed
 * message signs in once (the reference accepts it again until it expires). The account is the one of
 * the identity `web3:ethereum:<address in lower case>` (created on first sign-in, without email), as external
 * sign-in finds or creates it; the session's method is `web3`. Solana is not offered: 422.
 */
export async function signInWithWeb3(deps: Deps, input: Web3SignInInput): Promise<Result<SessionTokens>> {
  const { web3 } = deps.settings;
  if (!web3.ethereumEnabled) return err(failures.web3Disabled());
  if (input.chain === "solana") return err(failures.web3SolanaDisabled());
  if (input.chain !== "ethereum") return err(failures.web3UnsupportedChain());
  if (input.message.length < MIN_MESSAGE) return err(failures.web3MessageTooShort());
  if (input.message.length > MAX_MESSAGE) return err(failures.web3MessageTooLong());
  const parsed = parseSiweMessage(input.message);
  if (!parsed.ok) return err(failures.web3MessageInvalid(parsed.error));
  const message = parsed.value;
  if (!(await deps.wallets.ethereum(input.message, input.signature, message.address))) {
    return err(failures.web3SignatureMismatch());
  }
  const refused = siteRefusal(deps, message);
  if (refused !== null) return err(refused);
  const now = deps.clock.now();
  const late = siweTimeProblem(message, now, web3.maxValidityMs);
  if (late !== null) return err(failures.web3MessageTimeRefused(late));
  // Last, so that only a message that would sign in is spent.
  if (!(await deps.signedMessages.take(deps.tokens.hash(`ethereum\n${input.message}`)))) {
    return err(failures.web3MessageReplayed());
  }

  // One wallet, one identity: auth-js writes the address in lower case, other clients in EIP-55
  // mixed case (the reference keeps it as written, so the same wallet could open two accounts).
  const address = message.address.toLowerCase();
  const subject = `web3:ethereum:${address}`;
  const person = {
    subject,
    emails: [],
    identityData: {
      sub: subject,
      custom_claims: {
        address,
        chain: "ethereum",
        network: message.chainId ?? "",
        domain: message.domain,
        statement: message.statement,
      },
    },
  };
  const vetted = await vetExternalAccount(deps, { provider: "web3", person, now });
  if (!vetted.ok) return vetted;
  const started = await afterFirstSignInRaces(() => {
    const outbox = new Outbox<Web3Repositories>();
    return commitThenSend(deps.store, outbox, async (repos): Promise<Result<StartedSession>> => {
      const account = await externalAccount(deps, repos, {
        provider: "web3",
        person,
        redirectTo: deps.settings.siteUrl,
        now,
        outbox,
        vetted: vetted.value,
        addressless: true,
      });
      if (!account.ok) return account;
      const user = { ...account.value, lastSignInAt: now };
      await repos.users.update(user);
      return ok(await issueSession(deps, repos, user, "web3", now));
    });
  });
  // The custom access token hook runs once the sign-in committed (see signSession).
  return started.ok ? signSession(deps, started.value) : started;
}

/** `POST /token?grant_type=web3`. */
export const web3Grant = defineGrant("web3", signInWithWeb3);
