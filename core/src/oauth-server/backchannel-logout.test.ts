import { describe, expect, it } from "vitest";
import { fakeIdTokens, fakeLogoutDeliveries, fixedClock, sequentialRandom } from "../testing/index.js";
import {
  BACKCHANNEL_LOGOUT_EVENT,
  type BackchannelSettings,
  deliverLogouts,
  retryDelay,
} from "./backchannel-logout.js";

const CLIENT = "00000000-0000-4000-8000-0000000000c1";
const SETTINGS: BackchannelSettings = {
  issuer: "https://auth.example",
  maxAttempts: 3,
  maxAgeMs: 3_600_000,
  retryDelayMs: 1000,
  perClient: 2,
  batch: 10,
  leaseMs: 30_000,
};

function setup(answers: (number | Error)[] = []) {
  const clock = fixedClock();
  const deliveries = fakeLogoutDeliveries();
  const idTokens = fakeIdTokens();
  const posted: { uri: string; form: string }[] = [];
  const post = async (uri: string, form: string) => {
    posted.push({ uri, form });
    const answer = answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const deps = { deliveries, idTokens, post, clock, random: sequentialRandom(), settings: SETTINGS };
  const add = (n: number, clientId = CLIENT) =>
    deliveries.add({
      id: `d${n}-${clientId.slice(-2)}`,
      clientId,
      sessionId: `00000000-0000-4000-8000-00000000000${n}`,
      userId: "00000000-0000-4000-8000-0000000000a1",
      uri: "https://rp.example/backchannel?k=1",
      createdAt: clock.now(),
    });
  return { deps, clock, deliveries, idTokens, posted, add };
}

describe("deliverLogouts", () => {
  it("POSTs a logout token of the ID-token key (typ logout+jwt, sid, the event, no nonce) as a form, once", async () => {
    const { deps, deliveries, idTokens, posted, add } = setup();
    add(1);
    expect(await deliverLogouts(deps)).toMatchObject([{ outcome: "delivered", status: 200, attempt: 1 }]);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.uri).toBe("https://rp.example/backchannel?k=1");
    expect(posted[0]?.form).toMatch(/^logout_token=jwt\./);
    const claims = idTokens.signed[0] ?? {};
    expect(claims).toMatchObject({
      typ: "logout+jwt",
      iss: "https://auth.example",
      aud: [CLIENT],
      sub: "00000000-0000-4000-8000-0000000000a1",
      sid: "00000000-0000-4000-8000-000000000001",
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      jti: expect.any(String),
    });
    expect(claims).not.toHaveProperty("nonce");
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
    expect(deliveries.rows.size).toBe(0);
    expect(await deliverLogouts(deps)).toEqual([]);
  });

  it("retries an error status or no answer after a doubling delay, and gives up after the attempts", async () => {
    const { deps, clock, deliveries, posted, add } = setup([500, new Error("refused"), 503]);
    add(1);
    expect(await deliverLogouts(deps)).toMatchObject([{ outcome: "retry", status: 500 }]);
    // Not due before its delay.
    expect(await deliverLogouts(deps)).toEqual([]);
    clock.advance(retryDelay(SETTINGS, 1));
    expect(await deliverLogouts(deps)).toMatchObject([{ outcome: "retry", status: "network", attempt: 2 }]);
    clock.advance(retryDelay(SETTINGS, 1));
    expect(await deliverLogouts(deps)).toEqual([]);
    clock.advance(retryDelay(SETTINGS, 2));
    expect(await deliverLogouts(deps)).toMatchObject([{ outcome: "given_up", status: 503, attempt: 3 }]);
    expect(posted).toHaveLength(3);
    expect(deliveries.rows.size).toBe(0);
    expect([1, 2, 3, 30].map((n) => retryDelay(SETTINGS, n))).toEqual([1000, 2000, 4000, 3_600_000]);
  });

  it("gives up a delivery older than the age limit without posting", async () => {
    const { deps, clock, posted, add, deliveries } = setup();
    add(1);
    clock.advance(SETTINGS.maxAgeMs + 1);
    expect(await deliverLogouts(deps)).toMatchObject([{ outcome: "given_up" }]);
    expect(posted).toHaveLength(0);
    expect(deliveries.rows.size).toBe(0);
  });

  it("takes at most perClient deliveries of one client a pass, others' beside them", async () => {
    const { deps, posted, add } = setup();
    for (const n of [1, 2, 3, 4]) add(n);
    add(5, "00000000-0000-4000-8000-0000000000c2");
    expect(await deliverLogouts(deps)).toHaveLength(3);
    expect(await deliverLogouts(deps)).toHaveLength(2);
    expect(posted).toHaveLength(5);
  });

  it("keeps a delivery while no signing key is configured, retried", async () => {
    const { deps, posted, add } = setup();
    add(1);
    const noKey = { ...deps, idTokens: fakeIdTokens(false) };
    expect(await deliverLogouts(noKey)).toMatchObject([{ outcome: "retry", status: "no_key" }]);
    expect(posted).toHaveLength(0);
  });
});
