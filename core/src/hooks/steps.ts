import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { type AuthError, err, ok, type Result } from "../kernel/index.js";
import { validAccessTokenClaims } from "./access-token-claims.js";
import type { HooksDeps } from "./deps.js";
import { HOOK_REJECTION } from "./names.js";

type MaybeHooks = Partial<HooksDeps>;

/**
 * The access token claims after the custom access token hook: `claims` unchanged when the hook is
 * off; else the hook's `claims`, which replace them entirely once validated. Called with no
 * transaction open (a Postgres-function hook runs in one of its own): see `signSession`.
 */
export async function customizeAccessToken(
  deps: MaybeHooks,
  input: { userId: string; claims: Readonly<Record<string, unknown>>; method: string },
): Promise<Result<Readonly<Record<string, unknown>>>> {
  const { hooks } = deps;
  if (hooks === undefined || !hooks.enabled("custom_access_token")) return ok(input.claims);
  const answer = await hooks.run("custom_access_token", {
    user_id: input.userId,
    claims: input.claims,
    authentication_method: input.method,
  });
  return answer.ok ? validAccessTokenClaims(answer.value) : answer;
}

/**
 * Asks the password verification attempt hook about a sign-in whose password was checked (`valid`).
 * Resolves null to go on as the password says, or the refusal: the hook's `decision: "reject"`
 * (`invalid_credentials` with its message; `logout` when it asked to end the user's sessions), or
 * the hook's failure.
 */
export async function passwordVerificationAttempt(
  deps: MaybeHooks,
  input: { userId: string; valid: boolean },
): Promise<{ refusal: AuthError; logout: boolean } | null> {
  const { hooks } = deps;
  if (hooks === undefined || !hooks.enabled("password_verification_attempt")) return null;
  const answer = await hooks.run("password_verification_attempt", {
    user_id: input.userId,
    valid: input.valid,
  });
  if (!answer.ok) return { refusal: answer.error, logout: false };
  if (answer.value.decision !== HOOK_REJECTION) return null;
  const message = typeof answer.value.message === "string" ? answer.value.message : undefined;
  return {
    refusal: failures.passwordVerificationRejected(message),
    logout: answer.value.should_logout_user === true,
  };
}

/**
 * Asks the MFA verification attempt hook about a factor verification whose code was checked
 * (`valid`). Resolves null to go on, or the refusal: on `decision: "reject"` the caller ends all the
 * user's sessions and answers 403 `mfa_verification_rejected` (reference `mfa.go`).
 */
export async function mfaVerificationAttempt(
  deps: MaybeHooks,
  input: { userId: string; factorId: string; factorType: string; valid: boolean },
): Promise<{ refusal: AuthError; rejected: boolean } | null> {
  const { hooks } = deps;
  if (hooks === undefined || !hooks.enabled("mfa_verification_attempt")) return null;
  const answer = await hooks.run("mfa_verification_attempt", {
    user_id: input.userId,
    factor_id: input.factorId,
    factor_type: input.factorType,
    valid: input.valid,
  });
  if (!answer.ok) return { refusal: answer.error, rejected: false };
  if (answer.value.decision !== HOOK_REJECTION) return null;
  const message = typeof answer.value.message === "string" ? answer.value.message : undefined;
  return { refusal: failures.mfaVerificationRejected(message), rejected: true };
}

/**
 * Asks the before-user-created hook about `user`, not yet stored; resolves its refusal (its error
 * object, or its failure) or ok. Called before the transaction that creates the user, as the
 * reference does, so that an HTTP hook never holds a transaction open.
 */
export async function beforeUserCreated(deps: MaybeHooks, user: User): Promise<Result<User>> {
  const { hooks } = deps;
  if (hooks === undefined || !hooks.enabled("before_user_created")) return ok(user);
  const answer = await hooks.run("before_user_created", { user });
  return answer.ok ? ok(user) : err(answer.error);
}

const vetting = (deps: MaybeHooks): boolean => deps.hooks?.enabled("before_user_created") === true;

/**
 * Vets, before the transaction, the user a flow is about to create: when the before-user-created
 * hook is on and `taken()` finds no user with the address, builds the user (`build`) and asks the
 * hook. Resolves the vetted user (to be created as it is, inside the transaction; see
 * `userToCreate`), null when the hook is off or the address is taken, or the hook's refusal.
 */
export async function vetNewUser(
  deps: MaybeHooks,
  taken: () => Promise<boolean>,
  build: () => User,
): Promise<Result<User | null>> {
  if (!vetting(deps) || (await taken())) return ok(null);
  return beforeUserCreated(deps, build());
}

/**
 * Inside the transaction: the user to create, the one `vetNewUser` vetted, or a new one when the
 * hook is off. An address found taken before the transaction and free inside it was not vetted:
 * the request fails (a fault; asking again works) rather than create a user the hook never saw.
 */
export function userToCreate(deps: MaybeHooks, vetted: User | null, build: () => User): User {
  if (vetted !== null) return vetted;
  if (vetting(deps)) throw new Error("the address was freed during the request: the new user was not vetted");
  return build();
}
