import type { KeyObject } from "node:crypto";
import { randomBytes } from "node:crypto";
import type { Result } from "@authsvc/core/kernel";
import type { AuthnRequest, SamlAssertion, SamlServiceProvider, SsoProvider } from "@authsvc/core/sso";
import type { CacheProvider, SAML, SamlConfig } from "@node-saml/node-saml";
import { assertionFields, issuerOfResponse, responseDocument } from "./assertion-fields.js";
import { readIdpMetadata } from "./idp-metadata.js";
import { type SpKey, spKeyOf } from "./sp-key.js";
import { spMetadataXml } from "./sp-metadata.js";

export interface SamlSpOptions {
  /** `SAML_EXTERNAL_URL` (else `API_EXTERNAL_URL`): the base of the service provider's URLs. */
  readonly externalUrl: string;
  readonly key: KeyObject;
  /** `SAML_PRIVATE_KEY_NEXT`: advertised beside the key, and tried to decrypt when the key fails. */
  readonly nextKey?: KeyObject | undefined;
  readonly allowEncryptedAssertions: boolean;
  /** How far the identity provider's clock may be off: 180 s, as the reference. */
  readonly clockSkewMs?: number;
}

/** authsvc as a service provider, and what only the HTTP side asks of it: its metadata document. */
export interface SamlSp extends SamlServiceProvider {
  readonly entityId: string;
  readonly acsUrl: string;
}

const PERSISTENT = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
const FIVE_YEARS_MS = 5 * 365 * 24 * 60 * 60 * 1000;
/** The longest refusal reason passed on: the library's messages may quote the response. */
const MAX_REASON = 200;

/** The library, loaded on first use: a server without SAML never loads it. */
let library: Promise<typeof import("@node-saml/node-saml")> | undefined;
const saml = () => {
  library ??= import("@node-saml/node-saml");
  return library;
};

/** A cache that knows one AuthnRequest ID: the library's InResponseTo checks ask it. */
function expecting(requestId: string | null): CacheProvider {
  return {
    saveAsync: async () => null,
    // The library reads the value as the request's instant and checks its age: "now" always passes,
    // the relay state's own validity having been checked already.
    getAsync: async (key) => (requestId !== null && key === requestId ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
}

/**
 * The SAML service provider over @node-saml/node-saml: it signs AuthnRequests (RSA-SHA256) and checks
 * responses' XML signatures, InResponseTo, time conditions and audience; what the library leaves
 * (Destination, Recipient, Issuer) is checked on the verified assertion (`assertionFields`).
 * EntityID = metadata URL = `<external>/sso/saml/metadata`; ACS = `<external>/sso/saml/acs`.
 */
export function samlServiceProvider(options: SamlSpOptions): SamlSp {
  const base = `${options.externalUrl.replace(/\/+$/, "")}/sso`;
  const entityId = `${base}/saml/metadata`;
  const acsUrl = `${base}/saml/acs`;
  const host = new URL(options.externalUrl).hostname;
  const skew = options.clockSkewMs ?? 180_000;
  let keys: Promise<SpKey[]> | undefined;
  const spKeys = () => {
    keys ??= Promise.all(
      [options.key, ...(options.nextKey ? [options.nextKey] : [])].map((k) => spKeyOf(k, host)),
    );
    return keys;
  };

  const described = (provider: SsoProvider) => {
    const description = readIdpMetadata(provider.metadataXml);
    if (!description.ok)
      throw new Error(`stored SAML metadata of ${provider.id} is unusable: ${description.error}`);
    return description.value;
  };

  const config = (provider: SsoProvider, key: SpKey): SamlConfig => {
    const idp = described(provider);
    return {
      issuer: entityId,
      callbackUrl: acsUrl,
      entryPoint: idp.ssoUrl,
      idpCert: [...idp.signingCerts],
      idpIssuer: provider.entityId,
      audience: entityId,
      privateKey: key.privateKeyPem,
      signatureAlgorithm: "sha256",
      identifierFormat: provider.nameIdFormat ?? PERSISTENT,
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: skew,
      wantAssertionsSigned: false,
      wantAuthnResponseSigned: false,
    };
  };

  async function verifyWith(
    key: SpKey,
    input: { samlResponse: string; provider: SsoProvider; inResponseTo: string | null },
  ): Promise<Result<SamlAssertion, string>> {
    const { SAML, ValidateInResponseTo } = await saml();
    const sp = new SAML({
      ...config(input.provider, key),
      ...(options.allowEncryptedAssertions ? { decryptionPvk: key.privateKeyPem } : {}),
      validateInResponseTo:
        input.inResponseTo === null ? ValidateInResponseTo.never : ValidateInResponseTo.always,
      cacheProvider: expecting(input.inResponseTo),
    });
    let verified: Awaited<ReturnType<SAML["validatePostResponseAsync"]>>;
    try {
      verified = await sp.validatePostResponseAsync({ SAMLResponse: input.samlResponse });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, error: reason.slice(0, MAX_REASON) };
    }
    const { profile } = verified;
    if (profile?.getAssertionXml === undefined || profile.getSamlResponseXml === undefined) {
      return { ok: false, error: "no assertion" };
    }
    return assertionFields(profile.getAssertionXml(), profile.getSamlResponseXml(), {
      acsUrl,
      entityId: input.provider.entityId,
    });
  }

  return {
    entityId,
    acsUrl,
    rotating: options.nextKey !== undefined,
    readMetadata: readIdpMetadata,
    issuerOf: issuerOfResponse,

    async authnRequest(provider, relayState): Promise<AuthnRequest> {
      const [key] = await spKeys();
      if (key === undefined) throw new Error("no SAML key");
      // An NCName: XML IDs must not start with a digit.
      const requestId = `_${randomBytes(20).toString("hex")}`;
      const { SAML } = await saml();
      const sp = new SAML({ ...config(provider, key), generateUniqueId: () => requestId });
      const url = await sp.getAuthorizeUrlAsync(relayState, undefined, {});
      return { url, requestId };
    },

    async verify(input) {
      if (responseDocument(input.samlResponse) === null) return { ok: false, error: "not a SAML Response" };
      const [key, next] = await spKeys();
      if (key === undefined) throw new Error("no SAML key");
      const first = await verifyWith(key, input);
      // During a rotation an identity provider may already encrypt to the next key.
      if (first.ok || next === undefined || !options.allowEncryptedAssertions) return first;
      const second = await verifyWith(next, input);
      return second.ok ? second : first;
    },

    async metadata({ download, now }) {
      const certificates = (await spKeys()).map((k) => k.certificate);
      return spMetadataXml({
        entityId,
        acsUrl,
        certificates,
        allowEncryptedAssertions: options.allowEncryptedAssertions,
        validUntil: download ? new Date(now.getTime() + FIVE_YEARS_MS) : null,
        cacheDuration: options.nextKey ? "PT1H" : null,
      });
    },
  };
}
