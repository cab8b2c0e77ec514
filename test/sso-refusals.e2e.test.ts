import { newIdpKey, type ResponseSpec, startTestIdp, type TestIdp } from "@authsvc/adapters/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  atIdp,
  postToAcs,
  refusal,
  SP_ACS_URL,
  SP_ENTITY_ID,
  type SsoRig,
  startSsoRig,
} from "./support/saml.js";
import type { ServerProcess } from "./support/server-process.js";

/** Responses the assertion consumer must refuse: each lands on SITE_URL with the error, no session. */
const SITE = "https://app.example.com";
let rig: SsoRig;
let server: ServerProcess;
let idp: TestIdp;
let providerId: string;

beforeAll(async () => {
  rig = await startSsoRig({ AUTHSVC_SITE_URL: SITE }, ["refusals.example"]);
  ({ server, idp, providerId } = rig);
});

afterAll(async () => {
  await rig?.close();
});

const client = () => new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });

/** Starts an SP-initiated sign-in; resolves its relay state and the AuthnRequest's ID. */
async function started() {
  const { data } = await client().signInWithSSO({ providerId });
  const form = await atIdp(data?.url ?? "");
  const request = idp.requests.at(-1);
  return { relayState: form.fields.RelayState ?? "", requestId: request?.id ?? "", form };
}

/** Posts, for a fresh SP-initiated sign-in, the response `spec` describes; resolves the landing. */
async function answered(spec: Partial<ResponseSpec>, signWith = idp.key) {
  const { relayState, requestId } = await started();
  const response = idp.response({ inResponseTo: requestId, acsUrl: SP_ACS_URL, ...spec }, signWith);
  return postToAcs(server, { SAMLResponse: response, RelayState: relayState });
}

function expectRefused(landing: { status: number; location: string }, code: string, description?: RegExp) {
  expect(landing.status).toBe(303);
  const found = refusal(landing.location);
  expect(found.origin).toBe(SITE);
  expect(found.code, landing.location).toBe(code);
  if (description) expect(found.description).toMatch(description);
  expect(landing.location).not.toContain("access_token");
}

describe("the assertion consumer refuses", () => {
  it("an assertion altered after it was signed", async () => {
    const { relayState, requestId } = await started();
    const signed = Buffer.from(
      idp.response({ inResponseTo: requestId, nameId: "eve@example.com" }),
      "base64",
    );
    const tampered = signed.toString("utf8").replace("eve@example.com", "admin@example.com");
    const landing = await postToAcs(server, {
      SAMLResponse: Buffer.from(tampered).toString("base64"),
      RelayState: relayState,
    });
    expectRefused(landing, "validation_failed", /signature/i);
  });

  it("an assertion for another audience", async () => {
    expectRefused(
      await answered({ audience: "https://other-sp.example/metadata" }),
      "validation_failed",
      /audience/i,
    );
  });

  it("an expired assertion (past its NotOnOrAfter and the 180 s of skew)", async () => {
    const issuedAt = new Date(Date.now() - 10 * 60 * 1000);
    expectRefused(
      await answered({ issuedAt, validForMs: 60 * 1000 }),
      "validation_failed",
      /subject confirmation|expired/i,
    );
  });

  it("an assertion not valid yet (issued beyond the skew in the future)", async () => {
    expectRefused(await answered({ issuedAt: new Date(Date.now() + 10 * 60 * 1000) }), "validation_failed");
  });

  it("an unsigned response", async () => {
    expectRefused(await answered({ sign: "none" }), "validation_failed", /signature/i);
  });

  it("a response signed by a key not in the provider's metadata", async () => {
    expectRefused(await answered({}, await newIdpKey("attacker.test")), "validation_failed", /signature/i);
  });

  it("a response for another ACS (Destination, Recipient)", async () => {
    expectRefused(
      await answered({ destination: "https://other-sp.example/acs" }),
      "validation_failed",
      /Destination/,
    );
    expectRefused(
      await answered({ recipient: "https://other-sp.example/acs" }),
      "validation_failed",
      /Recipient/,
    );
  });

  it("a response that answers another AuthnRequest", async () => {
    expectRefused(await answered({ inResponseTo: "_someOtherRequest" }), "validation_failed", /InResponseTo/);
  });

  it("an assertion valid for longer than a day (its ID could not be remembered that long)", async () => {
    expectRefused(
      await answered({ validForMs: 2 * 24 * 60 * 60 * 1000 }),
      "validation_failed",
      /within a day/,
    );
  });

  it("a relay state posted a second time", async () => {
    const { form } = await started();
    expect((await postToAcs(server, form.fields)).status).toBe(302);
    expectRefused(await postToAcs(server, form.fields), "saml_relay_state_not_found");
  });

  it("a response replayed without its relay state (as IdP-initiated)", async () => {
    const { form } = await started();
    expect((await postToAcs(server, form.fields)).status).toBe(302);
    const replayed = await postToAcs(server, {
      SAMLResponse: form.fields.SAMLResponse ?? "",
      RelayState: "",
    });
    expectRefused(replayed, "validation_failed", /already used/);
  });

  it("the same IdP-initiated response twice", async () => {
    const response = idp.response({ nameId: "twice@example.com", acsUrl: SP_ACS_URL });
    expect((await postToAcs(server, { SAMLResponse: response })).status).toBe(302);
    expectRefused(await postToAcs(server, { SAMLResponse: response }), "validation_failed", /already used/);
  });

  it("all but one of 8 concurrent posts of one response", async () => {
    const { form } = await started();
    const landings = await Promise.all(Array.from({ length: 8 }, () => postToAcs(server, form.fields)));
    expect(landings.filter((l) => l.status === 302)).toHaveLength(1);
    for (const l of landings.filter((l) => l.status !== 302)) expectRefused(l, "saml_relay_state_not_found");
  });

  it("a response from an identity provider nobody registered", async () => {
    const stranger = await startTestIdp({ spEntityId: SP_ENTITY_ID });
    try {
      const response = stranger.response({ acsUrl: SP_ACS_URL });
      expectRefused(await postToAcs(server, { SAMLResponse: response }), "saml_idp_not_found");
    } finally {
      await stranger.close();
    }
  });

  it("an unknown relay state, one that is neither UUID nor URL, an artifact, and a body that is no SAML", async () => {
    const response = idp.response({ acsUrl: SP_ACS_URL });
    const unknown = await postToAcs(server, {
      SAMLResponse: response,
      RelayState: "00000000-0000-4000-8000-000000000000",
    });
    expectRefused(unknown, "saml_relay_state_not_found");
    expectRefused(
      await postToAcs(server, { SAMLResponse: response, RelayState: "not a url" }),
      "validation_failed",
    );
    expectRefused(await postToAcs(server, { SAMLart: "AAQAA" }), "validation_failed", /Artifact/);
    expectRefused(
      await postToAcs(server, { SAMLResponse: "bm90IHhtbA==" }),
      "validation_failed",
      /not a valid XML/,
    );
    expectRefused(await postToAcs(server, {}), "validation_failed", /missing/);
  });

  it("a response whose Issuer holds a NUL, which no registered provider can have", async () => {
    for (const issuer of ["https://idp.example/\u0000", "\u0000", "a&#0;b", "a&#x0;b"]) {
      const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r" Version="2.0"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${issuer}</saml:Issuer></samlp:Response>`;
      const landing = await postToAcs(server, { SAMLResponse: Buffer.from(xml).toString("base64") });
      expect(landing.status, JSON.stringify(issuer)).toBe(303);
      expect(refusal(landing.location).code, JSON.stringify(issuer)).not.toBeNull();
    }
  });

  it("a response with a DOCTYPE of expanding entities, at once", async () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("");
    const bomb = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY l0 "lol">${lol}]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"><saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">&l9;</saml:Issuer></samlp:Response>`;
    const started = Date.now();
    const landing = await postToAcs(server, { SAMLResponse: Buffer.from(bomb).toString("base64") });
    expect(landing.status).toBe(303);
    expect(refusal(landing.location).code).not.toBeNull();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a transient NameID, which names nobody twice", async () => {
    const transient = "urn:oasis:names:tc:SAML:2.0:nameid-format:transient";
    expectRefused(await answered({ nameId: "x1", nameIdFormat: transient }), "saml_assertion_no_user_id");
  });

  it("a signed assertion whose NameID or subject-id holds a NUL, which Postgres cannot store", async () => {
    expectRefused(await answered({ nameId: "eve\u0000@example.com" }), "validation_failed", /NameID/);
    const subjectId = "urn:oasis:names:tc:SAML:attribute:subject-id";
    expectRefused(
      await answered({ nameId: "eve@example.com", attributes: { [subjectId]: ["eve\u0000"] } }),
      "validation_failed",
      /subject-id/,
    );
  });

  it("an email attribute holding a NUL is not read: without another email, no email", async () => {
    const persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
    expectRefused(
      await answered({
        nameId: "opaque-43",
        nameIdFormat: persistent,
        attributes: { email: ["eve\u0000@example.com"], name: ["E\u0000ve"] },
      }),
      "saml_assertion_no_email",
    );
  });

  it("an assertion without an email", async () => {
    const persistent = "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent";
    expectRefused(
      await answered({ nameId: "opaque-42", nameIdFormat: persistent }),
      "saml_assertion_no_email",
    );
  });
});
