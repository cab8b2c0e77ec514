import { describe, expect, it } from "vitest";
import { fakeDeps, fakeDpopLedger, fakeDpopProofs } from "../testing/index.js";
import type { DecodedProof } from "./index.js";
import { checkDpopProof, checkResourceRequest, htuOf, tokenRequestBinding } from "./proof.js";

const URL = "https://auth.example.com/oauth/token";

function setup(dpop: Partial<ReturnType<typeof fakeDeps>["settings"]["dpop"]> = {}) {
  const base = fakeDeps();
  const proofs = fakeDpopProofs();
  const ledger = fakeDpopLedger();
  const deps = {
    ...base,
    dpopProofs: proofs,
    dpopLedger: ledger,
    settings: { ...base.settings, dpop: { ...base.settings.dpop, ...dpop } },
  };
  const now = Math.floor(base.clock.now().getTime() / 1000);
  let n = 0;
  const mint = (claims: Record<string, unknown> = {}, header: Partial<DecodedProof> = {}) =>
    proofs.mint({
      typ: "dpop+jwt",
      alg: "ES256",
      jkt: "key-1",
      claims: { jti: `jti-${++n}`, htm: "POST", htu: URL, iat: now, ...claims },
      ...header,
    });
  return { deps, mint, now, ledger, clock: base.clock };
}

const request = (proof: string | undefined, extra: Record<string, unknown> = {}) => ({
  proof,
  method: "POST",
  url: URL,
  ...extra,
});

describe("checkDpopProof", () => {
  it("answers the key's thumbprint of a valid proof, and spends its jti", async () => {
    const { deps, mint, ledger } = setup();
    expect(await checkDpopProof(deps, request(mint()))).toEqual({ ok: true, value: { jkt: "key-1" } });
    expect(ledger.spent.size).toBe(1);
  });

  it("refuses a replayed proof (same jti and key), across calls", async () => {
    const { deps, mint } = setup();
    const proof = mint({ jti: "same" });
    expect((await checkDpopProof(deps, request(proof))).ok).toBe(true);
    const again = await checkDpopProof(deps, request(proof));
    expect(again.ok || again.error.failure).toBe("dpopProofReplayed");
    // Another proof with the same jti and key is the same proof, whatever else it says.
    const twin = await checkDpopProof(deps, request(mint({ jti: "same", iat: setup().now - 1 })));
    expect(twin.ok || twin.error.code).toBe("invalid_dpop_proof");
  });

  it("keeps a spent jti until no proof of that iat could be accepted", async () => {
    const { deps, mint, ledger, now } = setup();
    await checkDpopProof(deps, request(mint({ iat: now + 30 })));
    expect([...ledger.spent.values()][0]?.getTime()).toBe((now + 30 + 61) * 1000);
  });

  const refusals: [string, () => ReturnType<typeof setup>, (s: ReturnType<typeof setup>) => unknown][] = [
    ["no proof", setup, () => request(undefined)],
    ["an unreadable proof (bad signature, private key, no jwk)", setup, () => request("forged")],
    ["two DPoP headers", setup, (s) => request(`${s.mint()}, ${s.mint()}`)],
    ["another typ", setup, (s) => request(s.mint({}, { typ: "jwt" }))],
    ["an algorithm not allowed", setup, (s) => request(s.mint({}, { alg: "HS256" }))],
    ["no jti", setup, (s) => request(s.mint({ jti: undefined }))],
    ["another method", setup, (s) => request(s.mint({ htm: "GET" }))],
    ["another URL", setup, (s) => request(s.mint({ htu: "https://auth.example.com/oauth/revoke" }))],
    ["the internal URL", setup, (s) => request(s.mint({ htu: "http://127.0.0.1:9999/oauth/token" }))],
    ["no htu", setup, (s) => request(s.mint({ htu: undefined }))],
    ["a stale iat", setup, (s) => request(s.mint({ iat: s.now - 61 }))],
    ["an iat in the future", setup, (s) => request(s.mint({ iat: s.now + 61 }))],
    ["no iat", setup, (s) => request(s.mint({ iat: "now" }))],
    ["no ath with an access token", setup, (s) => request(s.mint({}), { accessToken: "at" })],
    ["the ath of another token", setup, (s) => request(s.mint({ ath: "ath(other)" }), { accessToken: "at" })],
  ];
  it.each(refusals)("refuses %s as invalid_dpop_proof, spending nothing", async (_, make, req) => {
    const s = make();
    const result = await checkDpopProof(s.deps, req(s) as never);
    expect(result.ok || result.error.code).toBe("invalid_dpop_proof");
    expect(s.ledger.spent.size).toBe(0);
  });

  it("accepts the ath of the presented token", async () => {
    const { deps, mint } = setup();
    const result = await checkDpopProof(deps, request(mint({ ath: "ath(at)" }), { accessToken: "at" }));
    expect(result.ok).toBe(true);
  });

  it("compares htu without query or fragment, scheme and host in any case, default port or not", async () => {
    const { deps, mint } = setup();
    const htu = "HTTPS://Auth.Example.com:443/oauth/token?x=1#f";
    expect((await checkDpopProof(deps, request(mint({ htu })))).ok).toBe(true);
    expect(htuOf("https://auth.example.com/oauth/Token")).not.toBe(htuOf(URL));
    expect(htuOf("ftp://auth.example.com/oauth/token")).toBeNull();
  });

  describe("with nonces required", () => {
    it("asks for a nonce (use_dpop_nonce) when the proof has none", async () => {
      const { deps, mint, ledger } = setup({ nonceRequired: true });
      const result = await checkDpopProof(deps, request(mint()));
      expect(result.ok || result.error.code).toBe("use_dpop_nonce");
      expect(ledger.spent.size).toBe(0);
    });

    it("refuses a nonce it did not hand out, or one too old", async () => {
      const { deps, mint, clock } = setup({ nonceRequired: true });
      const old = deps.dpopNonces.current(clock.now());
      clock.advance(600_000);
      const s = setup({ nonceRequired: true });
      for (const nonce of ["made-up", old]) {
        const result = await checkDpopProof(deps, request(mint({ nonce, iat: s.now + 600 })));
        expect(result.ok || result.error.code).toBe("use_dpop_nonce");
      }
    });

    it("accepts the current nonce", async () => {
      const { deps, mint, clock } = setup({ nonceRequired: true });
      const nonce = deps.dpopNonces.current(clock.now());
      expect((await checkDpopProof(deps, request(mint({ nonce })))).ok).toBe(true);
    });
  });
});

describe("tokenRequestBinding", () => {
  it("binds nothing without a proof when neither the client nor the server requires one", async () => {
    const { deps } = setup();
    expect(await tokenRequestBinding(deps, { ...request(undefined), client: {} })).toEqual({
      ok: true,
      value: null,
    });
  });

  it("refuses a request without a proof from a client whose tokens are DPoP-bound", async () => {
    const { deps } = setup();
    const input = { ...request(undefined), client: { dpopBoundAccessTokens: true } };
    const result = await tokenRequestBinding(deps, input);
    expect(result.ok || result.error.failure).toBe("dpopProofMissing");
  });

  it("refuses a request without a proof when the server binds every token", async () => {
    const { deps } = setup({ requiredForAll: true });
    const result = await tokenRequestBinding(deps, { ...request(undefined), client: {} });
    expect(result.ok || result.error.code).toBe("invalid_dpop_proof");
  });

  it("checks a proof that is there, whatever the client", async () => {
    const { deps, mint } = setup();
    const bound = await tokenRequestBinding(deps, { ...request(mint()), client: {} });
    expect(bound).toEqual({ ok: true, value: { jkt: "key-1" } });
    const bad = await tokenRequestBinding(deps, { ...request("forged"), client: {} });
    expect(bad.ok).toBe(false);
  });
});

describe("checkResourceRequest", () => {
  const GET = "https://auth.example.com/oauth/userinfo";
  const resource = (s: ReturnType<typeof setup>, fields: Record<string, unknown>) => ({
    proof: s.mint({ htm: "GET", htu: GET, ath: "ath(at)" }),
    method: "GET",
    url: GET,
    accessToken: "at",
    scheme: "dpop" as const,
    boundTo: "key-1",
    ...fields,
  });

  it("accepts a bound token with the DPoP scheme and a proof of its key for it", async () => {
    const s = setup();
    expect(await checkResourceRequest(s.deps, resource(s, {}))).toEqual({ ok: true, value: undefined });
  });

  it("accepts an unbound token as a bearer token, proof or not", async () => {
    const s = setup();
    const input = resource(s, { scheme: "bearer", boundTo: null, proof: undefined });
    expect((await checkResourceRequest(s.deps, input)).ok).toBe(true);
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ["a bound token as a bearer token", { scheme: "bearer" }, "dpopBoundTokenAsBearer"],
    ["an unbound token with the DPoP scheme", { boundTo: null }, "dpopSchemeWithoutBinding"],
    ["a bound token without a proof", { proof: undefined }, "dpopProofMissing"],
    ["a proof of another key", { boundTo: "key-2" }, "dpopKeyMismatch"],
    ["a proof for another token", { accessToken: "other" }, "dpopProofInvalid"],
  ];
  it.each(refusals)("refuses %s", async (_, fields, failure) => {
    const s = setup();
    const result = await checkResourceRequest(s.deps, resource(s, fields));
    expect(result.ok || result.error.failure).toBe(failure);
  });
});
