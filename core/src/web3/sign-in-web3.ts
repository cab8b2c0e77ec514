import {
  afterFirstSignInRaces,
  commitThenSend,
  externalAccount,
  vetExternalAccount,
} from "../external/index.js";
import { failures } from "../failures.js";
import { err, isRedirectAllowed, Outbox, ok, parseAbsoluteUrl, type Result } from "../kernel/index.js";
import {
  defineGrant,
  issueSession,
  type SessionTokens,
  type StartedSession,
  signSession,
} from "../sessions/index.js";
import { WEB3_CHAINS, type Web3Chain } from "./chains.js";
import type { Web3Deps, Web3Repositories } from "./deps.js";
import type { MessageTimeProblem, SignInMessage } from "./sign-in-message.js";
import { messageTimeProblem } from "./sign-in-message.js";

/** A signed sign-in message (EIP-4361 or SIWS) and the wallet's signature of it. */
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

/**
 * Whether the message's URI and domain may sign in here (the reference's checks, in its order). The
 * domain is the site the wallet showed the user, so it must always be the URI's host and port, on an
 * allowed URL: the reference skips that on a localhost URI, which let a signature a wallet gave any site
 * sign in wherever SITE_URL or the allow list holds a development URL on localhost.
 */
function siteRefusal(deps: Pick<Deps, "settings">, chain: Web3Chain, message: SignInMessage) {
  const { uri } = message;
  const allow = { siteUrl: deps.settings.siteUrl, allowList: deps.settings.uriAllowList };
  if (uri.scheme !== "https" && uri.host !== "localhost") return failures.web3UriInsecure(chain.label);
  const uriText = `${uri.scheme}://${uri.authority}${uri.rest}`;
  if (!isRedirectAllowed(uriText, allow)) return failures.web3UriNotAllowed(chain.label);
  // Read the same way as the URI, so that `example.com:443` is `https://example.com`'s domain.
  const site = parseAbsoluteUrl(`${uri.scheme}://${message.domain}/`);
  if (site === null || site.authority !== uri.authority) return failures.web3DomainMismatch(chain.label);
  if (!isRedirectAllowed(`${site.scheme}://${site.authority}/`, allow)) {
    return failures.web3DomainMismatch(chain.label);
  }
  return null;
}

const TIME_FAILURES = {
  "not-yet-valid": failures.web3MessageNotYetValid,
  expired: failures.web3MessageExpired,
  "issued-too-long-ago": failures.web3MessageTooOld,
  "issued-in-the-future": failures.web3MessageFromTheFuture,
} as const satisfies Record<MessageTimeProblem, unknown>;

/** The chain a request names, or why it may not sign in: the reference's answers, in its order. */
function chainOf(deps: Pick<Deps, "settings">, name: string): Result<Web3Chain> {
  const { web3 } = deps.settings;
  if (!web3.ethereum.enabled && !web3.solana.enabled) return err(failures.web3Disabled());
  const chain = WEB3_CHAINS.get(name);
  if (chain === undefined) return err(failures.web3UnsupportedChain());
  if (!chain.settings(web3).enabled) return err(failures.web3ChainDisabled(chain.label));
  return ok(chain);
}

/**
 * `POST /token?grant_type=web3`: signs in with a wallet's signature of a sign-in message — Ethereum
 * (EIP-4361, EIP-191 signature; `EXTERNAL_WEB3_ETHEREUM_ENABLED`) or Solana (SIWS, Ed25519 signature;
 * `EXTERNAL_WEB3_SOLANA_ENABLED`). The message is parsed strictly (400 `validation_failed` with the
 * parser's sentence), the signature checked against its address, then — each refusal an OAuth
 * `invalid_grant` — its URI (https unless on localhost, on the redirect allow list), its domain (the
 * URI's host and port, on any URI, and allowed), its time window (Not Before, Expiration Time, and `Issued At` within the
 * chain's maximum validity either way), and that it was not used before: a signed message signs in
 * once (the reference accepts it again until it expires). The account is the one of the identity
 * `web3:<chain>:<address>` (created on first sign-in, without email), as external sign-in finds or
 * creates it; the session's method is `web3`.
 */
export async function signInWithWeb3(deps: Deps, input: Web3SignInInput): Promise<Result<SessionTokens>> {
  const chosen = chainOf(deps, input.chain);
  if (!chosen.ok) return chosen;
  const chain = chosen.value;
  if (input.message.length < MIN_MESSAGE) return err(failures.web3MessageTooShort());
  if (input.message.length > MAX_MESSAGE) return err(failures.web3MessageTooLong());
  const malformed = chain.signatureProblem(input.signature);
  if (malformed !== null) return err(malformed);
  const parsed = chain.parse(input.message);
  if (!parsed.ok) return err(failures.web3MessageInvalid(parsed.error));
  const message = parsed.value;
  if (!(await chain.verify(deps.wallets, message, input.signature))) {
    return err(failures.web3SignatureMismatch());
  }
  const refused = siteRefusal(deps, chain, message);
  if (refused !== null) return err(refused);
  const now = deps.clock.now();
  const late = messageTimeProblem(message, now, chain.settings(deps.settings.web3).maxValidityMs);
  if (late !== null) return err(TIME_FAILURES[late](chain.label));
  // Last, so that only a message that would sign in is spent.
  if (!(await deps.signedMessages.take(deps.tokens.hash(`${chain.name}\n${input.message}`)))) {
    return err(failures.web3MessageReplayed(chain.label));
  }

  const address = chain.identityAddress(message.address);
  const subject = `web3:${chain.name}:${address}`;
  const person = {
    subject,
    emails: [],
    identityData: {
      sub: subject,
      custom_claims: {
        address,
        chain: chain.name,
        network: message.chainId ?? "",
        domain: message.domain,
        statement: message.statement ?? chain.noStatement,
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
