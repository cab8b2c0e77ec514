import type { AccessTokenClaims } from "./claims.js";

/** The claims of an OAuth client's access token that say whose it is and what it may do. */
const BINDING = ["aud", "role", "client_id", "session_id", "scope", "cnf"] as const;

/**
 * The custom access token hook's claims for a session, with an OAuth client's binding put back as
 * core computed it (`computed`): the hook may add claims, but the user granted the client scopes, not
 * the account's admin role (which a data API reading `role` would honour), and the token is for the
 * audience and resource the user approved, of this client and session, bound to the DPoP key of the
 * session or request when it is (`cnf`). A first-party session's claims
 * are the hook's to set.
 */
export function withClientBinding(
  hooked: Readonly<Record<string, unknown>>,
  computed: AccessTokenClaims,
): Readonly<Record<string, unknown>> {
  if (computed.client_id === undefined) return hooked;
  const bound: Record<string, unknown> = { ...hooked };
  for (const name of BINDING) {
    // A DPoP binding the hook may neither remove nor change; an unbound token gets none from it.
    if (computed[name] === undefined) delete bound[name];
    else bound[name] = computed[name];
  }
  return bound;
}
