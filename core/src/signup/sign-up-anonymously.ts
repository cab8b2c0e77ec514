import { blankUser, createUser, type Metadata } from "../accounts/index.js";
import { failures } from "../failures.js";
import { beforeUserCreated } from "../hooks/index.js";
import { err, ok, type Result } from "../kernel/index.js";
import { issueSession, signOutcome } from "../sessions/index.js";
import type { Committed, SignUpDeps, SignUpOutcome } from "./sign-up-outcome.js";

/** Signs in as a new anonymous user (reference `anonymous.go`): no identity, no password. */
export async function signUpAnonymously(deps: SignUpDeps, data: Metadata): Promise<Result<SignUpOutcome>> {
  const { signup, jwt } = deps.settings;
  if (!signup.anonymousEnabled) {
    return err(failures.anonymousSignInsDisabled());
  }
  if (signup.disabled) return err(failures.signupDisabled());
  const now = deps.clock.now();
  const user = blankUser({
    id: deps.random.uuid(),
    aud: jwt.aud,
    role: jwt.defaultRole,
    createdAt: now,
    userMetadata: data,
    isAnonymous: true,
    lastSignInAt: now,
  });
  const vetted = await beforeUserCreated(deps, user);
  if (!vetted.ok) return vetted;
  const outcome = await deps.store.transaction(async (repos): Promise<Committed> => {
    // An anonymous user has no identity.
    const inserted = await createUser(deps, repos, user, { now, identities: [] });
    if (!inserted.created) {
      throw new Error(`signUp: inserting an anonymous user reported ${inserted.clash}`);
    }
    await repos.audit.record({ action: "user_signedup", actorId: user.id, actorUsername: "", at: now });
    return ok({ kind: "session", tokens: await issueSession(deps, repos, user, "anonymous", now) });
  });
  return outcome.ok ? signOutcome(deps, outcome.value) : outcome;
}
