import {
  postgresLimiterStore,
  postgresRelayStates,
  postgresSsoProviders,
  readSpPrivateKey,
  samlMetadataFetcher,
  samlServiceProvider,
} from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import { SAML_ASSERTION_MEMORY_SECONDS, type SamlServiceProvider } from "@authsvc/core/sso";
import type { WiringContext } from "../module.js";
import { ensureDevSamlKey } from "./dev-saml-key.js";

/** With SAML off the use cases refuse before reaching the protocol: nothing here is ever called. */
function samlOff(): SamlServiceProvider {
  const off = () => {
    throw new Error("SAML is disabled");
  };
  return { rotating: false, metadata: off, readMetadata: off, authnRequest: off, issuerOf: off, verify: off };
}

/**
 * The SSO ports: providers and relay states in the database, the service provider (@node-saml) with
 * the configured key (embedded mode: one generated and kept in the data folder), the metadata fetcher,
 * and the record of assertion IDs already used, in the shared request-limit table.
 */
export function ssoPortsOf(
  ctx: WiringContext,
): Pick<AuthDeps, "ssoProviders" | "relayStates" | "saml" | "samlMetadata" | "samlAssertions"> {
  const { config, sql } = ctx;
  const namespace = config.db.namespace;
  const sso = config.sso;
  let provider: SamlServiceProvider = samlOff();
  if (sso.enabled) {
    const key = sso.privateKey ?? (sso.devKeyDir !== undefined ? ensureDevSamlKey(sso.devKeyDir) : undefined);
    if (key === undefined) throw new Error("SAML_PRIVATE_KEY is required");
    provider = samlServiceProvider({
      externalUrl: sso.externalUrl ?? config.api.externalUrl,
      key: readSpPrivateKey(key),
      nextKey: sso.privateKeyNext === undefined ? undefined : readSpPrivateKey(sso.privateKeyNext),
      allowEncryptedAssertions: sso.allowEncryptedAssertions,
    });
  }
  const limits = postgresLimiterStore(sql, {
    namespace,
    onStoreError: (error) =>
      ctx.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "assertion store unreachable: this instance remembers the SAML assertions it saw alone",
      ),
  });
  return {
    ssoProviders: postgresSsoProviders(sql, { namespace }),
    relayStates: postgresRelayStates(sql, { namespace }),
    saml: provider,
    samlMetadata: samlMetadataFetcher({ allowPrivateAddresses: sso.metadataAllowPrivateAddresses }),
    samlAssertions: limits.limiter({
      name: "saml_assertion",
      points: 1,
      durationSec: SAML_ASSERTION_MEMORY_SECONDS,
    }),
  };
}
