import { failures } from "../../failures.js";
import { err, ok, type Result } from "../../kernel/index.js";
import type { ExternalRepositories } from "../deps.js";

/**
 * Manual linking and unlinking change how the user signs in: for a user with a verified second
 * factor they need an aal2 session, as a change of password, email or phone does (`PUT /user`).
 * Else whoever has only the password could link an identity of their own and sign in with it after
 * the password is changed, or unlink the user's. A token without a session is refused as well. The
 * reference checks neither.
 */
export async function checkLinkingAssurance(
  repos: Pick<ExternalRepositories, "factors" | "sessions">,
  userId: string,
  sessionId: string | null | undefined,
): Promise<Result<true>> {
  const factors = await repos.factors.listByUser(userId);
  if (!factors.some((f) => f.status === "verified")) return ok(true);
  const session = sessionId ? await repos.sessions.find(sessionId) : null;
  return session?.aal === "aal2" ? ok(true) : err(failures.linkingNeedsAal2());
}
