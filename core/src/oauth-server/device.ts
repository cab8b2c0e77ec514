import { failures } from "../failures.js";
import { err, ok, type Random, type Result } from "../kernel/index.js";
import { type OAuthAuthorization, scopesOf } from "./authorization.js";
import { consentPage, readScope, resourceAllowed } from "./authorize.js";
import { DEVICE_CODE_GRANT_TYPE, type OAuthClient } from "./client.js";
import type { OAuthServerDeps } from "./deps.js";
import { issuerOf, withQuery } from "./query.js";
import { knownScopes, scopeProblem } from "./scopes.js";

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "tokens" | "settings">;

/**
 * The user code's alphabet (RFC 8628 §6.1): 20 consonants, no vowels (no words), no look-alikes of
 * digits; 8 of them are 20^8 ≈ 2^34.6 codes.
 */
export const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";
export const USER_CODE_LENGTH = 8;
/** Where a user types the code, on the issuer: `verification_uri`. */
export const DEVICE_PAGE_PATH = "/oauth/device";
/** How many user codes are drawn before giving up (each a collision with a live one, ~N/2^34.6). */
const DRAWS = 5;

/** RFC 8628 §3.2's answer, before JSON. */
export interface DeviceAuthorization {
  readonly deviceCode: string;
  /** As shown to the user: `XXXX-XXXX`. */
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
  readonly expiresIn: number;
  readonly interval: number;
}

/** A user code drawn uniformly from the alphabet (two random digits per character, 80 of 100 kept). */
function drawUserCode(random: Pick<Random, "digits">): string {
  let code = "";
  while (code.length < USER_CODE_LENGTH) {
    const n = Number(random.digits(2));
    if (n < 80) code += USER_CODE_ALPHABET[n % USER_CODE_ALPHABET.length];
  }
  return code;
}

/** `XXXX-XXXX`, as the user reads it. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/**
 * The user code as typed, normalised (RFC 8628 §6.1): case, dashes and spaces ignored; null when it
 * cannot be one (wrong length or a character outside the alphabet).
 */
export function normalizeUserCode(typed: string): string | null {
  if (typed.length > 64) return null;
  const code = typed.toUpperCase().replace(/[\s\-\u2010-\u2015]/g, "");
  const valid = new RegExp(`^[${USER_CODE_ALPHABET}]{${USER_CODE_LENGTH}}$`);
  return valid.test(code) ? code : null;
}

/** The stored form of a normalised user code: a keyed MAC, so a copy of the table reveals none. */
const userCodeHash = (deps: Pick<Deps, "tokens">, code: string) =>
  deps.tokens.flowBinding(`oauth-user-code:${code}`);

/** The verification page (`verification_uri`), on the issuer. */
export const devicePage = (deps: Pick<Deps, "settings">) =>
  `${issuerOf(deps.settings).replace(/\/+$/, "")}${DEVICE_PAGE_PATH}`;

/**
 * `POST /oauth/device_authorization` (RFC 8628 §3.1): a device's request for the client, its scope and
 * resource read as `/oauth/authorize` reads them. Stored as an authorization request that the
 * consent page serves once the user typed the user code; the device code (only its hash stored)
 * is what the device polls `/oauth/token` with.
 */
export async function startDeviceAuthorization(
  deps: Deps,
  input: {
    readonly client: OAuthClient;
    readonly scope?: string | undefined;
    readonly resource?: string | undefined;
  },
): Promise<Result<DeviceAuthorization>> {
  const { client } = input;
  if (!client.grantTypes.includes(DEVICE_CODE_GRANT_TYPE)) return err(failures.deviceGrantTypeMissing());
  const read = readScope(deps, input);
  if ("problem" in read) return err(failures.authorizeRequestInvalid(read.problem));
  if (input.resource && !resourceAllowed(deps, input.resource))
    return err(failures.authorizeResourceNotAllowed());
  // As at /oauth/authorize: built-in and custom scopes (a custom one bound to a resource only for it),
  // within the client's allowed scopes when it has a list (invalid_scope).
  const asked = scopesOf(read.scope);
  const unsupported = scopeProblem(
    await knownScopes(deps, asked),
    asked,
    input.resource || null,
    client.scope,
  );
  if (unsupported !== null) return err(failures.authorizeScopeInvalid(unsupported));
  if (consentPage(deps) === null) return err(failures.authorizationPathMissing());
  const now = deps.clock.now();
  const { codeTtlSeconds, intervalSeconds } = deps.settings.oauthDevice;
  const verificationUri = devicePage(deps);
  for (let draw = 0; draw < DRAWS; draw++) {
    const deviceCode = deps.tokens.generate();
    const userCode = drawUserCode(deps.random);
    const authorization: OAuthAuthorization = {
      id: deps.random.uuid(),
      authorizationId: `${deps.random.uuid()}${deps.random.uuid()}`.replaceAll("-", "").slice(0, 32),
      clientId: client.id,
      userId: null,
      redirectUri: verificationUri,
      scope: read.scope,
      state: null,
      resource: input.resource || null,
      // No browser redirect carries a code: no PKCE either (the device code never leaves the device).
      codeChallenge: "",
      codeChallengeMethod: "s256",
      nonce: null,
      status: "pending",
      codeHash: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + codeTtlSeconds * 1000),
      approvedAt: null,
      authTime: null,
      device: {
        deviceCodeHash: deps.tokens.hash(deviceCode),
        userCodeHash: userCodeHash(deps, userCode),
        interval: intervalSeconds,
        lastPolledAt: null,
      },
    };
    if (await deps.store.oauthAuthorizations.insertDevice(authorization)) {
      const shown = formatUserCode(userCode);
      return ok({
        deviceCode,
        userCode: shown,
        verificationUri,
        verificationUriComplete: withQuery(verificationUri, { user_code: shown }),
        expiresIn: codeTtlSeconds,
        interval: intervalSeconds,
      });
    }
  }
  throw new Error("no free user code after several draws");
}

/**
 * The verification page's step (RFC 8628 §3.3): the user code typed, normalised; where the browser
 * goes on, the consent page of its request, which signs the user in and asks. Every code that is
 * not a live pending request's — malformed, unknown, expired, decided — is refused alike; the
 * page counts the attempts (per client address and in all).
 */
export async function enterUserCode(
  deps: Deps,
  input: { readonly userCode: string },
): Promise<Result<{ readonly location: string }>> {
  const code = normalizeUserCode(input.userCode);
  // The MAC is computed whatever was typed, so a malformed code costs what a wrong one does.
  const hash = userCodeHash(deps, code ?? "");
  if (code === null) return err(failures.userCodeInvalid());
  const found = await deps.store.oauthAuthorizations.findByUserCode(hash);
  const now = deps.clock.now();
  if (found === null || !found.device || found.status !== "pending" || found.expiresAt <= now)
    return err(failures.userCodeInvalid());
  const page = consentPage(deps);
  if (page === null) return err(failures.authorizationPathMissing());
  return ok({ location: withQuery(page, { authorization_id: found.authorizationId }) });
}
