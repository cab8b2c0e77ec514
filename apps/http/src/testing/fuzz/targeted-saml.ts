import { generateKeyPairSync } from "node:crypto";
import { signedResponse } from "@authsvc/adapters/testing";
import fc from "fast-check";
import type { RequestSpec } from "./requests.js";
import { encoded, FORM, formOf, hostile, rarely, spec, type TargetedContext } from "./targeted-values.js";

// The SAML assertion consumer (`POST /sso/saml/acs`): hostile documents, signed or not, in hostile forms.

const base64Of = (xml: string) => Buffer.from(xml, "utf8").toString("base64");
const elementSoup = fc
  .array(fc.oneof(hostile, fc.constantFrom("<a>", "</a>", "<saml:Assertion>", "<!--", "-->", "<![CDATA[")), {
    maxLength: 6,
  })
  .map((parts) => parts.join(""));

/** An unsigned Response document with a hostile Issuer and body. */
function unsignedResponse(entityId: string): fc.Arbitrary<string> {
  return fc
    .record({
      issuer: fc.oneof(
        fc.constant(entityId),
        hostile,
        hostile.map((h) => `${entityId}${h}`),
      ),
      inner: elementSoup,
      doctype: fc.constantFrom("", '<!DOCTYPE r [<!ENTITY e "x">]>', '<?xml version="1.0"?>'),
    })
    .map(
      ({ issuer, inner, doctype }) =>
        `${doctype}<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r" Version="2.0"><saml:Issuer>${issuer}</saml:Issuer>${inner}</samlp:Response>`,
    );
}

/** A response the registered identity provider signed, about a hostile person. */
function signedHostile(saml: TargetedContext["saml"]): fc.Arbitrary<string> {
  const good = fc.uuid().map((u) => `${u}@example.com`);
  return fc
    .record({
      nameId: fc.oneof({ weight: 3, arbitrary: good }, hostile),
      nameIdFormat: rarely(
        fc.oneof(
          fc.constantFrom(
            "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
            "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
          ),
          hostile,
        ),
      ),
      attributes: fc.dictionary(
        fc.oneof(
          fc.constantFrom("email", "mail", "name", "urn:oasis:names:tc:SAML:attribute:subject-id"),
          hostile,
        ),
        fc.array(fc.oneof(good, hostile), { maxLength: 2 }),
        { maxKeys: 3 },
      ),
      assertionId: rarely(
        fc.oneof(
          fc.uuid().map((u) => `_${u}`),
          hostile,
        ),
      ),
      validForMs: rarely(fc.integer({ min: -600_000, max: 3 * 86_400_000 })),
      sessionEnd: rarely(fc.integer({ min: -3_600_000, max: 3_600_000 })),
      sign: fc.constantFrom(
        "assertion",
        "assertion",
        "assertion",
        "response",
        "both",
        "none",
      ) as fc.Arbitrary<"assertion" | "response" | "both" | "none">,
      destination: rarely(hostile),
    })
    .map((r) => {
      const responseSpec = {
        issuer: saml.entityId,
        audience: saml.spEntityId,
        acsUrl: saml.acsUrl,
        nameId: r.nameId,
        attributes: r.attributes,
        sign: r.sign,
        ...(r.nameIdFormat !== undefined ? { nameIdFormat: r.nameIdFormat } : {}),
        ...(r.assertionId !== undefined ? { assertionId: r.assertionId } : {}),
        ...(r.validForMs !== undefined ? { validForMs: r.validForMs } : {}),
        ...(r.sessionEnd !== undefined ? { sessionNotOnOrAfter: new Date(Date.now() + r.sessionEnd) } : {}),
        ...(r.destination !== undefined ? { destination: r.destination } : {}),
      };
      try {
        return signedResponse(responseSpec, saml.key);
      } catch {
        // Text the signer cannot canonicalize: sent unsigned instead.
        return signedResponse({ ...responseSpec, sign: "none" }, saml.key);
      }
    });
}

const samlResponse = (saml: TargetedContext["saml"]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: signedHostile(saml) },
    { weight: 3, arbitrary: unsignedResponse(saml.entityId).map(base64Of) },
    { weight: 1, arbitrary: elementSoup.map(base64Of) },
    // Base64 that is not: other alphabets, bad padding, whitespace, nothing at all.
    { weight: 1, arbitrary: fc.constantFrom("", "====", "a", "bm90IHhtbA", "-_-_", " \n\t", "PHg+AA==") },
    { weight: 1, arbitrary: hostile },
  );

export function acsRequest(ctx: TargetedContext): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      response: samlResponse(ctx.saml),
      relay: fc.oneof(
        { weight: 4, arbitrary: fc.constant("") },
        fc.uuid(),
        fc.constantFrom("http://localhost:3000/after", "https://evil.example/", "/path"),
        hostile,
      ),
      artifact: rarely(hostile),
      contentType: fc.constantFrom(FORM, FORM, FORM, "multipart/form-data", "text/plain", "application/json"),
    })
    .map(({ response, relay, artifact, contentType }) =>
      spec("POST", "/sso/saml/acs", {
        headers: { "content-type": contentType },
        body: formOf([
          ["SAMLResponse", encoded(response)],
          ["RelayState", encoded(relay)],
          ...(artifact !== undefined ? [["SAMLart", encoded(artifact)] as const] : []),
        ]),
      }),
    );
}

/** What a fuzzed server needs for the ACS to be reached: SAML on, with a key of its own. */
export function samlFuzzEnv(): Record<string, string> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  return {
    AUTHSVC_SAML_ENABLED: "true",
    AUTHSVC_SAML_PRIVATE_KEY: privateKey.export({ format: "der", type: "pkcs1" }).toString("base64"),
  };
}
