import { blankUser, type User } from "../../accounts/index.js";
import { challengeFactor, enrollFactor, verifyFactor } from "../../mfa/index.js";
import { signInWithPassword } from "../../sessions/index.js";
import type { AuthSettings } from "../../settings.js";
import { defaultAuthSettings, fakeDeps } from "../fake-deps.js";
import type { fakeTotp } from "./fake-mfa.js";

/** The address MFA tests challenge and verify from. */
export const IP = "203.0.113.7";

/** A signed-in user (aal1 session) on fake ports; phone factors enabled. */
export async function signedIn(fields: Partial<User> = {}, mfa: Partial<AuthSettings["mfa"]> = {}) {
  const defaults = defaultAuthSettings().mfa;
  const deps = fakeDeps({ mfa: { ...defaults, phone: { ...defaults.phone, enrollEnabled: true }, ...mfa } });
  const now = deps.clock.now();
  const user = blankUser({
    id: "11111111-1111-4111-8111-111111111111",
    aud: "authenticated",
    role: "authenticated",
    createdAt: now,
    email: "alice@example.com",
    encryptedPassword: "plain$secret1",
    emailConfirmedAt: now,
    ...fields,
  });
  deps.store.tables.users.set(user.id, user);
  const signIn = async () => {
    const tokens = await signInWithPassword(deps, { email: "alice@example.com", password: "secret1" });
    if (!tokens.ok) throw tokens.error;
    return tokens.value;
  };
  const first = await signIn();
  const totp = deps.totp as ReturnType<typeof fakeTotp>;
  return { deps, user, session: first.session, signIn, totp };
}

export type SignedIn = Awaited<ReturnType<typeof signedIn>>;

/** Enrols a TOTP factor for the signed-in user; answers the enrolment (its secret in `totp`). */
export async function enrolTotp({ deps, user, session }: SignedIn, friendlyName = "app") {
  const enrolled = await enrollFactor(deps, {
    user,
    sessionId: session.id,
    factorType: "totp",
    friendlyName,
  });
  if (!enrolled.ok) throw enrolled.error;
  return enrolled.value;
}

/** Challenges the factor and answers the challenge with the code of the clock's current step. */
export async function verifyTotp(
  setup: SignedIn,
  factorId: string,
  secret: string,
  sessionId = setup.session.id,
) {
  const { deps, user, totp } = setup;
  const challenge = await challengeFactor(deps, { user, factorId, ipAddress: IP });
  if (!challenge.ok) throw challenge.error;
  const code = totp.codeAt(secret, deps.clock.now());
  return verifyFactor(deps, {
    user,
    sessionId,
    factorId,
    challengeId: challenge.value.id,
    code,
    ipAddress: IP,
  });
}
