import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace } from "../testing/database.js";
import { postgresRelayStates, postgresSsoProviders } from "./sso-store.js";

let db: FreshNamespace;
beforeAll(async () => {
  db = await migratedNamespace();
});
afterAll(() => db?.drop());

const refusal = {
  failure: "unstorableValue",
  code: "validation_failed",
  message: "The request contains a value that cannot be stored",
};

describe("the SSO stores", () => {
  it("answer text the database cannot store (NUL) as validation_failed, as every repository of the store", async () => {
    const providers = postgresSsoProviders(db.sql, { namespace: db.namespace });
    await expect(providers.findByDomain("a\u0000.example")).rejects.toMatchObject(refusal);
    await expect(providers.findByEntityId("https://idp.example/\u0000")).rejects.toMatchObject(refusal);
    await expect(providers.findByResourceId("\u0000")).rejects.toMatchObject(refusal);
    await expect(providers.list({ resourceIdPrefix: "r\u0000" })).rejects.toMatchObject(refusal);
    const relayStates = postgresRelayStates(db.sql, { namespace: db.namespace });
    await expect(
      relayStates.create({
        id: "11111111-1111-4111-8111-111111111111",
        providerId: "22222222-2222-4222-8222-222222222222",
        requestId: "_r",
        redirectTo: "https://app.example/\u0000",
        codeChallenge: null,
        codeChallengeMethod: null,
        createdAt: new Date(),
      }),
    ).rejects.toMatchObject(refusal);
  });
});
