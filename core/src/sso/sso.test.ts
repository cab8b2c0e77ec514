import { describe, expect, it } from "vitest";
import { failures } from "../failures.js";
import { err, ok } from "../kernel/index.js";
import { fakeDeps } from "../testing/fake-deps.js";
import { fakeHooks } from "../testing/hooks/fake-hooks.js";
import { acceptSamlResponse } from "./accept-saml-response.js";
import { createSsoProvider, listSsoProviders, updateSsoProvider } from "./admin-providers.js";
import { startSso } from "./start-sso.js";

const ENTITY = "https://idp.example/metadata";
const metadata = (entityId = ENTITY) => `<EntityDescriptor entityID="${entityId}"/>`;

async function setup(saml: { enabled?: boolean } = {}) {
  const deps = fakeDeps({
    sso: {
      enabled: saml.enabled ?? true,
      relayStateValidityMs: 120_000,
      rateLimitSsoPer5Min: 30,
      rateLimitAssertionPer5Min: 15,
    },
  });
  const created = await createSsoProvider(deps, {
    type: "saml",
    metadataXml: metadata(),
    domains: ["Example.com"],
  });
  if (!created.ok && saml.enabled !== false) throw created.error;
  const provider = created.ok ? created.value : null;
  const at = (ms: number) => new Date(deps.clock.now().getTime() + ms).toISOString();
  const response = (
    fields: {
      id?: string;
      inResponseTo?: string;
      nameId?: string;
      untilMs?: number;
      sessionUntilMs?: number;
    } = {},
  ) =>
    JSON.stringify({
      issuer: ENTITY,
      id: fields.id ?? `a-${Math.random()}`,
      nameId: fields.nameId ?? "ada@example.com",
      inResponseTo: fields.inResponseTo,
      until: at(fields.untilMs ?? 300_000),
      sessionUntil: fields.sessionUntilMs === undefined ? undefined : at(fields.sessionUntilMs),
    });
  const start = async () => {
    const started = await startSso(deps, { domain: "example.com", pkce: null });
    if (!started.ok) throw started.error;
    const relayState = new URL(started.value.url).searchParams.get("RelayState") ?? "";
    return { relayState, requestId: `_request-${relayState}` };
  };
  return { deps, provider, response, start };
}

describe("startSso", () => {
  it("refuses while SAML is off, and without exactly one of provider_id and domain", async () => {
    const off = await setup({ enabled: false });
    expect((await startSso(off.deps, { domain: "example.com", pkce: null })).ok).toBe(false);
    const { deps } = await setup();
    const both = await startSso(deps, { domain: "example.com", providerId: "x", pkce: null });
    expect(!both.ok && both.error.message).toBe("Only one of provider_id or domain supported");
    const neither = await startSso(deps, { pkce: null });
    expect(!neither.ok && neither.error.message).toBe("A provider_id or domain needs to be provided");
    const unknown = await startSso(deps, { domain: "other.example", pkce: null });
    expect(!unknown.ok && unknown.error.code).toBe("sso_provider_not_found");
  });

  it("refuses a disabled provider", async () => {
    const { deps, provider } = await setup();
    await updateSsoProvider(deps, provider?.id ?? "", { disabled: true });
    const started = await startSso(deps, { domain: "example.com", pkce: null });
    expect(!started.ok && started.error.code).toBe("sso_provider_disabled");
  });
});

describe("acceptSamlResponse", () => {
  it("signs an SP-initiated answer into a new SSO account, once", async () => {
    const { deps, response, start, provider } = await setup();
    const { relayState, requestId } = await start();
    const input = { samlResponse: response({ inResponseTo: requestId }), relayState };
    const accepted = await acceptSamlResponse(deps, input);
    if (!accepted.ok) throw accepted.error;
    expect(accepted.value.kind).toBe("session");
    const user = accepted.value.kind === "session" ? accepted.value.tokens.user : null;
    expect(user?.isSsoUser).toBe(true);
    expect(user?.identities.map((i) => i.provider)).toEqual([`sso:${provider?.id}`]);
    const again = await acceptSamlResponse(deps, input);
    expect(!again.ok && again.error.code).toBe("saml_relay_state_not_found");
  });

  it("has the before-user-created hook vet a new SSO user only: its refusal leaves no user behind", async () => {
    const { deps, response } = await setup();
    const hooks = fakeHooks({
      before_user_created: (input) => {
        const email = (input as { user: { email: string } }).user.email;
        return email.endsWith("@blocked.example")
          ? err(failures.hookError(403, "Sign-ups from this domain are closed"))
          : ok({});
      },
    });
    const hooked = { ...deps, hooks: hooks.dispatcher };
    const refused = await acceptSamlResponse(hooked, {
      samlResponse: response({ nameId: "eve@blocked.example" }),
    });
    expect(!refused.ok && refused.error.message).toBe("Sign-ups from this domain are closed");
    expect(await deps.store.users.findByEmail("eve@blocked.example")).toBeNull();
    const accepted = await acceptSamlResponse(hooked, { samlResponse: response() });
    if (!accepted.ok) throw accepted.error;
    const vettedId = (hooks.calls.at(-1)?.input as { user?: { id: string } } | undefined)?.user?.id;
    expect(accepted.value.kind === "session" && accepted.value.tokens.user.id).toBe(vettedId);
    expect(hooks.calls).toHaveLength(2);
    expect((await acceptSamlResponse(hooked, { samlResponse: response() })).ok).toBe(true);
    expect(hooks.calls).toHaveLength(2);
  });

  it("ends the session when the assertion's SessionNotOnOrAfter says; refuses one already ended", async () => {
    const { deps, response } = await setup();
    const accepted = await acceptSamlResponse(deps, { samlResponse: response({ sessionUntilMs: 60_000 }) });
    if (!accepted.ok || accepted.value.kind !== "session") throw new Error("no session");
    const session = await deps.store.sessions.find(accepted.value.tokens.session.id);
    expect(session?.notAfter?.getTime()).toBe(deps.clock.now().getTime() + 60_000);
    const plain = await acceptSamlResponse(deps, { samlResponse: response() });
    if (!plain.ok || plain.value.kind !== "session") throw new Error("no session");
    expect((await deps.store.sessions.find(plain.value.tokens.session.id))?.notAfter).toBeNull();
    const ended = await acceptSamlResponse(deps, { samlResponse: response({ sessionUntilMs: 0 }) });
    expect(!ended.ok && ended.error.message).toBe(
      "SAML Assertion is not valid: its session has already ended (SessionNotOnOrAfter)",
    );
  });

  it("refuses a relay state past its validity", async () => {
    const { deps, response, start } = await setup();
    const { relayState, requestId } = await start();
    deps.clock.advance(120_001);
    const late = await acceptSamlResponse(deps, {
      samlResponse: response({ inResponseTo: requestId }),
      relayState,
    });
    expect(!late.ok && late.error.code).toBe("saml_relay_state_expired");
  });

  it("accepts an assertion ID once, IdP-initiated too", async () => {
    const { deps, response } = await setup();
    const samlResponse = response({ id: "the-one" });
    expect((await acceptSamlResponse(deps, { samlResponse })).ok).toBe(true);
    const again = await acceptSamlResponse(deps, { samlResponse, relayState: "" });
    expect(!again.ok && again.error.message).toBe("SAML Assertion is not valid: it was already used");
  });

  it("refuses an assertion valid for more than a day", async () => {
    const { deps, response } = await setup();
    const long = await acceptSamlResponse(deps, { samlResponse: response({ untilMs: 25 * 3600_000 }) });
    expect(!long.ok && long.error.code).toBe("validation_failed");
  });

  it("lands an IdP-initiated sign-in on SITE_URL when its RelayState is not allowed", async () => {
    const { deps, response } = await setup();
    const accepted = await acceptSamlResponse(deps, {
      samlResponse: response(),
      relayState: "https://evil.example/x",
    });
    expect(accepted.ok && accepted.value.redirectTo).toBe(deps.settings.siteUrl);
  });
});

describe("the admin's providers", () => {
  it("refuse a second EntityID, a domain another owns, and a changed EntityID", async () => {
    const { deps, provider } = await setup();
    const dup = await createSsoProvider(deps, { type: "saml", metadataXml: metadata() });
    expect(!dup.ok && dup.error.code).toBe("saml_idp_already_exists");
    const other = await createSsoProvider(deps, {
      type: "saml",
      metadataXml: metadata("https://other/metadata"),
      domains: ["EXAMPLE.com"],
    });
    expect(!other.ok && other.error.code).toBe("sso_domain_already_exists");
    const changed = await updateSsoProvider(deps, provider?.id ?? "", {
      metadataXml: metadata("https://other/metadata"),
    });
    expect(!changed.ok && changed.error.code).toBe("saml_entity_id_mismatch");
  });

  it("keeps the NameID format when an update leaves it out", async () => {
    const { deps } = await setup();
    const format = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
    const made = await createSsoProvider(deps, {
      type: "saml",
      metadataXml: metadata("https://third/metadata"),
      nameIdFormat: format,
    });
    if (!made.ok) throw made.error;
    const updated = await updateSsoProvider(deps, made.value.id, { disabled: false });
    expect(updated.ok && updated.value.nameIdFormat).toBe(format);
  });

  it("list every provider for a filter left unset, and refuse one Postgres cannot store", async () => {
    const { deps, provider } = await setup();
    const all = await listSsoProviders(deps, { resourceId: undefined, resourceIdPrefix: undefined });
    expect(all.ok && all.value.map((p) => p.id)).toEqual([provider?.id]);
    const nul = await listSsoProviders(deps, { resourceIdPrefix: "a\u0000" });
    expect(!nul.ok && nul.error.code).toBe(failures.unstorableValue().code);
  });
});
