/** The NameID formats a provider may ask for (`name_id_format`); "" asks for none in particular. */
export const NAME_ID_FORMATS = [
  "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
] as const;

/** How one claim of the identity is read from the assertion's attributes (`attribute_mapping.keys.<claim>`). */
export interface AttributeRule {
  /** The attribute's Name or FriendlyName. */
  readonly name?: string;
  /** Several names, the first that has a value wins. */
  readonly names?: readonly string[];
  /** The value when no attribute has one. */
  readonly default?: unknown;
  /** Every value of the attribute instead of the first. */
  readonly array?: boolean;
}

/** `attribute_mapping`: how the assertion's attributes become the identity's claims. */
export interface AttributeMapping {
  readonly keys?: Readonly<Record<string, AttributeRule>>;
}

/** A SAML identity provider registered with the admin API: `sso_providers` with its SAML row and domains. */
export interface SsoProvider {
  readonly id: string;
  readonly resourceId: string | null;
  /** Null: never set (the reference's tri-state). */
  readonly disabled: boolean | null;
  readonly entityId: string;
  readonly metadataXml: string;
  readonly metadataUrl: string | null;
  readonly attributeMapping: AttributeMapping;
  readonly nameIdFormat: string | null;
  /** Lower-cased email domains that lead `POST /sso` to this provider. */
  readonly domains: readonly string[];
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An SP-initiated sign-in waiting for the identity provider's answer (`saml_relay_states`). */
export interface RelayState {
  readonly id: string;
  readonly providerId: string;
  /** The AuthnRequest's ID: the response must answer it (`InResponseTo`). */
  readonly requestId: string;
  readonly redirectTo: string;
  readonly codeChallenge: string | null;
  readonly codeChallengeMethod: "s256" | "plain" | null;
  readonly createdAt: Date;
}

/** A provider's identity-provider metadata, as read from its XML. */
export interface IdpMetadata {
  readonly entityId: string;
  /** Seconds the metadata says it may be cached, if it says. */
  readonly validUntil: Date | null;
}

/** What a verified assertion says about the person (every check passed). */
export interface SamlAssertion {
  /** The assertion's ID: it is accepted once. */
  readonly id: string;
  /** When the assertion stops being valid (its Conditions' or confirmation's NotOnOrAfter). */
  readonly notOnOrAfter: Date | null;
  /**
   * When the identity provider wants the session to end: the first AuthnStatement's
   * `SessionNotOnOrAfter` (the reference's `NotAfter`); null when none says.
   */
  readonly sessionNotOnOrAfter: Date | null;
  readonly nameId: string | null;
  readonly nameIdFormat: string | null;
  /** Attribute values by Name, and by FriendlyName too. */
  readonly attributes: Readonly<Record<string, readonly string[]>>;
}
