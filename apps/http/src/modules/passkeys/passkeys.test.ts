import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

/** An app (fake ports, fake WebAuthn) and a user signed up through the API, aal1. */
async function signedIn(passkeys: { enabled: boolean } = { enabled: true }) {
  const base = testApp().auth.settings;
  const t = testApp(
    {},
    {
      signup: { ...base.signup, mailerAutoconfirm: true },
      passkeys: { ...base.passkeys, ...passkeys },
    },
  );
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const body = (await res.json()) as { access_token: string; user: { id: string } };
  return { ...t, userId: body.user.id, headers: { authorization: `Bearer ${body.access_token}` } };
}

type Json = Record<string, unknown>;

describe("/passkeys", () => {
  it("registers, lists, renames and deletes a passkey; signs in with it", async () => {
    const { app, headers, auth } = await signedIn();
    const options = (await (
      await send(app, "POST", "/passkeys/registration/options", {}, headers)
    ).json()) as Json & {
      challenge_id: string;
      options: { challenge: string };
    };
    expect(options).toMatchObject({ challenge_id: expect.any(String), expires_at: expect.any(Number) });
    const credential = { challenge: options.options.challenge, credentialId: "cred" };
    const registered = await send(
      app,
      "POST",
      "/passkeys/registration/verify",
      { challenge_id: options.challenge_id, credential },
      headers,
    );
    expect(registered.status).toBe(200);
    const passkey = (await registered.json()) as Json & { id: string };
    expect(Object.keys(passkey).sort()).toEqual(["created_at", "friendly_name", "id"]);

    const renamed = await send(app, "PATCH", `/passkeys/${passkey.id}`, { friendly_name: "Laptop" }, headers);
    expect(await renamed.json()).toMatchObject({ id: passkey.id, friendly_name: "Laptop" });

    const started = (await (await send(app, "POST", "/passkeys/authentication/options", {})).json()) as {
      challenge_id: string;
      options: { challenge: string };
    };
    const user = [...auth.store.tables.users.values()][0];
    const assertion = {
      challenge: started.options.challenge,
      credentialId: "cred",
      userHandle: user?.id,
      publicKey: "key-of-cred",
      signCount: 1,
    };
    const signed = await send(app, "POST", "/passkeys/authentication/verify", {
      challenge_id: started.challenge_id,
      credential: assertion,
    });
    expect(signed.status).toBe(200);
    expect(await signed.json()).toMatchObject({ token_type: "bearer", refresh_token: expect.any(String) });

    const listed = (await (await send(app, "GET", "/passkeys", undefined, headers)).json()) as Json[];
    expect(listed).toEqual([
      {
        id: passkey.id,
        friendly_name: "Laptop",
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    expect((await send(app, "DELETE", `/passkeys/${passkey.id}`, undefined, headers)).status).toBe(204);
    expect((await send(app, "DELETE", `/passkeys/${passkey.id}`, undefined, headers)).status).toBe(404);
  });

  it("answers 404 passkey_disabled when passkeys are off, in both error shapes", async () => {
    const { app, headers } = await signedIn({ enabled: false });
    const legacy = await send(app, "POST", "/passkeys/authentication/options", {});
    expect(legacy.status).toBe(404);
    expect(await legacy.json()).toMatchObject({ code: 404, error_code: "passkey_disabled" });
    const current = await send(app, "GET", "/passkeys", undefined, { ...headers, ...NEW_API });
    expect(current.status).toBe(404);
    expect(await current.json()).toMatchObject({ code: "passkey_disabled" });
  });

  it("refuses a signed-out registration and malformed bodies with JSON errors", async () => {
    const { app, headers } = await signedIn();
    expect((await send(app, "POST", "/passkeys/registration/options", {})).status).toBe(401);
    const unknownChallenge = await send(
      app,
      "POST",
      "/passkeys/registration/verify",
      { challenge_id: "00000000-0000-4000-8000-000000000000", credential: {} },
      headers,
    );
    expect(unknownChallenge.status).toBe(400);
    expect(await unknownChallenge.json()).toMatchObject({ error_code: "webauthn_challenge_not_found" });
    const noCredential = await send(app, "POST", "/passkeys/authentication/verify", { challenge_id: "x" });
    expect(await noCredential.json()).toMatchObject({ error_code: "validation_failed" });
    const badName = await send(app, "PATCH", "/passkeys/not-a-uuid", { friendly_name: "x" }, headers);
    expect(badName.status).toBe(404);
    const badJson = await send(app, "PATCH", "/passkeys/not-a-uuid", { friendly_name: 7 }, headers);
    expect(badJson.status).toBe(400);
  });
});
