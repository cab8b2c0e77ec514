import type { Result } from "../../kernel/index.js";
import type { IdpMetadata, SamlAssertion, SsoProvider } from "../provider.js";

/** A signed AuthnRequest, ready for the browser (HTTP-Redirect binding). */
export interface AuthnRequest {
  /** The identity provider's single sign-on URL with `SAMLRequest`, `RelayState`, `SigAlg`, `Signature`. */
  readonly url: string;
  /** The request's ID, which the response's `InResponseTo` must name. */
  readonly requestId: string;
}

/** authsvc as a SAML 2.0 service provider: the protocol work, done by a SAML library. */
export interface SamlServiceProvider extends SamlSpMetadata {
  /** Reads identity-provider metadata: its EntityID and validity, or why it cannot be used. */
  readMetadata(xml: string): Result<IdpMetadata, string>;
  /** Builds the signed AuthnRequest to `provider` that carries `relayState`. */
  authnRequest(provider: SsoProvider, relayState: string): Promise<AuthnRequest>;
  /**
   * The `Issuer` of a base64 `SAMLResponse`, read before anything is verified, only to find which
   * provider's keys verify it; null when it is no SAML Response.
   */
  issuerOf(samlResponse: string): string | null;
  /**
   * Verifies a response from `provider`: signed (the Response, or else its one Assertion) by a key of
   * the provider's metadata, issued by it, addressed to this service provider's ACS (Destination,
   * Recipient) and entity (Audience), within its time conditions (with a clock skew), answering
   * `inResponseTo` when given. Resolves what it asserts, or why it is refused.
   */
  verify(input: {
    readonly samlResponse: string;
    readonly provider: SsoProvider;
    readonly inResponseTo: string | null;
  }): Promise<Result<SamlAssertion, string>>;
}

/** The service provider's own metadata document, and what `GET /settings` says of its keys. */
export interface SamlSpMetadata {
  /** The metadata XML; `download` makes it valid for 5 years (a copy kept by an identity provider). */
  metadata(options: { readonly download: boolean; readonly now: Date }): Promise<string>;
  /** Whether a next key is published beside the current one (a rotation is under way). */
  readonly rotating: boolean;
}

/** Fetches identity-provider metadata from `metadata_url` (https only, never a private address). */
export interface MetadataFetcher {
  /** The metadata XML, or why it could not be fetched. */
  fetch(url: string): Promise<Result<string, string>>;
}
