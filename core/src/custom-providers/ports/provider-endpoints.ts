import type { Result } from "../../kernel/index.js";
import type { OidcDiscovery } from "../custom-provider.js";

/**
 * The checks on a custom provider's URLs, made when an admin sets them: authsvc will call these URLs
 * from inside the operator's network, so they must lead to a public https server (no loopback,
 * private, link-local or metadata address), and an OpenID provider's discovery document must hold.
 */
export interface ProviderEndpoints {
  /**
   * Null when authsvc may call `url`; else why not (scheme, host, an address it resolves to). The
   * calls themselves are checked again when they connect.
   */
  refusal(url: string): Promise<string | null>;
  /**
   * Fetches the discovery document at `url` (within 10 s and 1 MiB) and checks it: HTTP 200, JSON,
   * `issuer` exactly `issuer`, and the endpoints sign-in needs present. The error is the reason.
   */
  discover(url: string, issuer: string): Promise<Result<OidcDiscovery, string>>;
}
