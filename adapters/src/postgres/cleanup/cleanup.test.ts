import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ago, cleanupRows, DAY_MS, HOUR_MS } from "../../testing/cleanup-rows.js";
import { connectTestDatabase, type FreshNamespace, migratedNamespace } from "../../testing/database.js";
import { postgresSessionStore } from "../sessions-store.js";
import { cleaner } from "./cleaner.js";
import type { CleanupTask } from "./task.js";
import { type CleanupSettings, cleanupTasks } from "./tasks/index.js";

const SETTINGS: CleanupSettings = {
  sessionTimeboxMs: 0,
  sessionInactivityTimeoutMs: 0,
  anonymousUsersEnabled: true,
  oneTimeTokenLifetimeMs: HOUR_MS,
  mfaChallengeLifetimeMs: 5 * 60 * 1000,
  auditLogRetentionMs: 30 * DAY_MS,
  revokedTokenRetentionMs: DAY_MS,
  endedSessionRetentionMs: DAY_MS,
};

describe("cleanup", () => {
  let ns: FreshNamespace;
  let rows: ReturnType<typeof cleanupRows>;
  // A schema per test: each counts what its own pass removed.
  beforeEach(async () => {
    ns = await migratedNamespace();
    rows = cleanupRows(ns.sql, ns.namespace);
  });
  afterEach(async () => ns.drop());

  const clean = (settings: Partial<CleanupSettings> = {}, batchSize = 100) =>
    cleaner(ns.sql, cleanupTasks({ ...SETTINGS, ...settings }), { namespace: ns.namespace, batchSize });

  it("removes each kind of stale row and keeps the live ones", async () => {
    const user = await rows.user();
    const live = await rows.session(user);
    const tokens = await rows.family(user, live, [ago(3 * DAY_MS), ago(2 * DAY_MS), ago(HOUR_MS)]);
    const ended = await rows.session(user, { createdAt: ago(10 * DAY_MS), notAfter: ago(2 * DAY_MS) });
    const endedTokens = await rows.family(user, ended, [ago(3 * DAY_MS)]);
    const endingToday = await rows.session(user, { notAfter: ago(HOUR_MS) });
    const oldFlow = await rows.flowState(ago(2 * DAY_MS));
    const codeIssuedLately = await rows.flowState(ago(2 * DAY_MS), ago(HOUR_MS));
    const freshFlow = await rows.flowState(ago(HOUR_MS));
    const verified = await rows.factor(user, "verified", ago(40 * DAY_MS));
    const unverifiedOld = await rows.factor(user, "unverified", ago(2 * DAY_MS));
    const unverifiedNew = await rows.factor(user, "unverified", ago(HOUR_MS));
    const oldChallenge = await rows.challenge(verified, ago(2 * DAY_MS));
    const newChallenge = await rows.challenge(verified, ago(HOUR_MS));
    const expiredToken = await rows.oneTimeToken(user, "recovery_token", ago(2 * HOUR_MS));
    const pendingToken = await rows.oneTimeToken(user, "confirmation_token", ago(10 * 60 * 1000));
    await rows.requestLimit("ended", ago(1000));
    await rows.requestLimit("running", ago(-60_000));
    await rows.sendWindow("email", ago(2 * HOUR_MS));
    await rows.sendWindow("email-now", ago(10 * 60 * 1000));
    // A lockout count forgotten an hour ago, and one still counting.
    await ns.sql`
      insert into ${ns.sql(ns.namespace)}.sign_in_failures (key, failed_attempts, last_failed_at, expires_at)
      values
        (${"a".repeat(64)}, 3, ${ago(13 * HOUR_MS)}, ${ago(HOUR_MS)}),
        (${"b".repeat(64)}, 3, ${ago(HOUR_MS)}, ${ago(-11 * HOUR_MS)})`;
    const oldAudit = await rows.auditEntry(ago(31 * DAY_MS));
    const newAudit = await rows.auditEntry(ago(29 * DAY_MS));
    const oldAnonymous = await rows.user({ anonymous: true, createdAt: ago(31 * DAY_MS) });
    const anonymousSession = await rows.session(oldAnonymous, { createdAt: ago(31 * DAY_MS) });
    await rows.family(oldAnonymous, anonymousSession, [ago(31 * DAY_MS)]);
    const newAnonymous = await rows.user({ anonymous: true, createdAt: ago(29 * DAY_MS) });
    const oldPermanent = await rows.user({ createdAt: ago(400 * DAY_MS) });

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(report.complete).toBe(true);
    expect(report.removed).toMatchObject({
      // Two of the live family, the ended session's one, the old anonymous user's one.
      refresh_tokens: 4,
      sessions_past_not_after: 1,
      flow_states: 1,
      mfa_challenges: 1,
      unverified_factors: 1,
      one_time_tokens: 1,
      request_limits: 1,
      send_quota: 1,
      sign_in_failures: 1,
      anonymous_users: 1,
      audit_log_entries: 1,
    });
    // The revoked tokens of more than a day go; the last revoked one and the live one stay.
    expect(await rows.present("refresh_tokens", tokens.ids)).toEqual(tokens.ids.slice(2));
    expect(await rows.present("refresh_tokens", endedTokens.ids)).toEqual([]);
    expect(await rows.present("sessions", [live, ended, endingToday, anonymousSession])).toEqual([
      live,
      endingToday,
    ]);
    expect(await rows.present("flow_state", [oldFlow, codeIssuedLately, freshFlow])).toEqual([
      codeIssuedLately,
      freshFlow,
    ]);
    expect(await rows.present("mfa_factors", [verified, unverifiedOld, unverifiedNew])).toEqual([
      verified,
      unverifiedNew,
    ]);
    expect(await rows.present("mfa_challenges", [oldChallenge, newChallenge])).toEqual([newChallenge]);
    expect(await rows.present("one_time_tokens", [expiredToken, pendingToken])).toEqual([pendingToken]);
    expect(await rows.count("request_limits")).toBe(1);
    expect(await rows.count("send_quota")).toBe(1);
    expect(await rows.count("sign_in_failures")).toBe(1);
    expect(await rows.present("audit_log_entries", [oldAudit, newAudit])).toEqual([newAudit]);
    expect(await rows.present("users", [user, oldAnonymous, newAnonymous, oldPermanent])).toEqual([
      user,
      newAnonymous,
      oldPermanent,
    ]);
    // The chain stays as it was: the kept revoked token still names its removed parent (no foreign
    // key to set it to null), and the live one its kept parent.
    const chain = await ns.sql`
      select id, revoked, parent_id from ${ns.sql(ns.namespace)}.refresh_tokens
      where id in ${ns.sql(tokens.ids.slice(2))} order by id`;
    expect(chain).toEqual([
      { id: String(tokens.ids[2]), revoked: true, parent_id: String(tokens.ids[1]) },
      { id: String(tokens.ids[3]), revoked: false, parent_id: String(tokens.ids[2]) },
    ]);

    const again = await clean().pass();
    expect(again.total).toBe(0);
  });

  it("removes unanswered OAuth requests a minute past their expiry, codes and WebAuthn challenges an hour past", async () => {
    const oldCode = await rows.oauthAuthorization(ago(2 * HOUR_MS), "approved");
    const lateCode = await rows.oauthAuthorization(ago(10 * 60 * 1000), "approved");
    // Anyone can make these, unauthenticated: kept no longer than their TTL and a minute.
    const lateRequest = await rows.oauthAuthorization(ago(2 * 60 * 1000));
    const justExpired = await rows.oauthAuthorization(ago(10 * 1000));
    const liveRequest = await rows.oauthAuthorization(ago(-5 * 60 * 1000));
    const oldChallenge = await rows.webauthnChallenge(ago(2 * HOUR_MS));
    const liveChallenge = await rows.webauthnChallenge(ago(-60 * 1000));

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(report.removed).toMatchObject({ oauth_authorizations: 2, webauthn_challenges: 1 });
    expect(
      await rows.present("oauth_authorizations", [oldCode, lateCode, lateRequest, justExpired, liveRequest]),
    ).toEqual([lateCode, justExpired, liveRequest]);
    expect(await rows.present("webauthn_challenges", [oldChallenge, liveChallenge])).toEqual([liveChallenge]);
  });

  it("removes pushed authorization requests and used assertion jtis a minute past their expiry", async () => {
    const oldPush = await rows.oauthPushedRequest(ago(2 * 60 * 1000));
    const livePush = await rows.oauthPushedRequest(ago(-30 * 1000));
    const oldJti = await rows.oauthAssertionJti(ago(2 * 60 * 1000));
    const liveJti = await rows.oauthAssertionJti(ago(-60 * 1000));

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(report.removed).toMatchObject({ oauth_pushed_requests: 1, oauth_client_assertion_jtis: 1 });
    expect(await rows.present("oauth_pushed_requests", [oldPush, livePush])).toEqual([livePush]);
    const jtis = await ns.sql<{ jti: string }[]>`
      select jti from ${ns.sql(ns.namespace)}.oauth_client_assertion_jtis where jti in ${ns.sql([oldJti, liveJti])}`;
    expect(jtis.map((r) => r.jti)).toEqual([liveJti]);
  });

  it("removes a client metadata document's client a day past its document's expiry, unless something holds it", async () => {
    const unused = await rows.metadataDocumentClient(ago(25 * HOUR_MS));
    const requested = await rows.metadataDocumentClient(ago(25 * HOUR_MS), true);
    const recent = await rows.metadataDocumentClient(ago(HOUR_MS));

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(report.removed).toMatchObject({ oauth_metadata_document_clients: 1 });
    expect(await rows.present("oauth_clients", [unused, requested, recent])).toEqual([requested, recent]);
  });

  it("removes SAML relay states a day old", async () => {
    const old = await rows.samlRelayState(ago(25 * HOUR_MS));
    const live = await rows.samlRelayState(ago(60 * 1000));

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(report.removed).toMatchObject({ saml_relay_states: 1 });
    expect(await rows.present("saml_relay_states", [old, live])).toEqual([live]);
  });

  it("keeps a family's live token however old, and its session with it", async () => {
    const user = await rows.user({ createdAt: ago(90 * DAY_MS) });
    const session = await rows.session(user, { createdAt: ago(90 * DAY_MS) });
    const family = await rows.family(user, session, [ago(80 * DAY_MS), ago(70 * DAY_MS)]);
    await ns.sql`update ${ns.sql(ns.namespace)}.refresh_tokens set created_at = ${ago(70 * DAY_MS)}, updated_at = ${ago(70 * DAY_MS)} where id = ${family.ids[2] ?? 0}`;

    const report = await clean().pass();

    expect(report.failures).toEqual([]);
    expect(await rows.present("refresh_tokens", family.ids)).toEqual([family.ids[2]]);
    expect(await rows.present("sessions", [session])).toEqual([session]);
  });

  it("leaves anonymous users while anonymous sign-ins are off, and audit entries without a retention", async () => {
    const anonymous = await rows.user({ anonymous: true, createdAt: ago(60 * DAY_MS) });
    const audit = await rows.auditEntry(ago(3650 * DAY_MS));
    await clean({ anonymousUsersEnabled: false, auditLogRetentionMs: 0 }).pass();
    expect(await rows.present("users", [anonymous])).toEqual([anonymous]);
    expect(await rows.present("audit_log_entries", [audit])).toEqual([audit]);
  });

  it("removes sessions past the timebox or idle past the inactivity timeout only when those are set", async () => {
    const user = await rows.user();
    const boxed = await rows.session(user, { createdAt: ago(3 * DAY_MS), refreshedAt: ago(HOUR_MS) });
    const idle = await rows.session(user, { createdAt: ago(HOUR_MS * 40), refreshedAt: ago(HOUR_MS * 38) });
    const neverRefreshed = await rows.session(user, { createdAt: ago(HOUR_MS * 40) });
    const active = await rows.session(user, { createdAt: ago(HOUR_MS * 40), refreshedAt: ago(HOUR_MS) });
    for (const session of [boxed, idle, neverRefreshed, active]) await rows.family(user, session, []);

    await clean().pass();
    expect(await rows.present("sessions", [boxed, idle, neverRefreshed, active])).toHaveLength(4);

    const timebox = await clean({ sessionTimeboxMs: DAY_MS + HOUR_MS }).pass();
    expect(timebox.removed.sessions_past_timebox).toBe(1);
    expect(await rows.present("sessions", [boxed, idle, neverRefreshed, active])).toEqual([
      idle,
      neverRefreshed,
      active,
    ]);

    const inactivity = await clean({ sessionInactivityTimeoutMs: 12 * HOUR_MS }).pass();
    expect(inactivity.removed.inactive_sessions).toBe(2);
    expect(await rows.present("sessions", [idle, neverRefreshed, active])).toEqual([active]);
  });

  it("keeps revoked tokens and ended sessions as long as their retentions say", async () => {
    const user = await rows.user();
    const live = await rows.session(user);
    const tokens = await rows.family(user, live, [ago(3 * HOUR_MS), ago(90 * 60 * 1000), ago(HOUR_MS / 2)]);
    const ended = await rows.session(user, { createdAt: ago(DAY_MS), notAfter: ago(3 * HOUR_MS) });
    const endedLately = await rows.session(user, { notAfter: ago(HOUR_MS / 2) });
    const boxed = await rows.session(user, { createdAt: ago(4 * HOUR_MS) });

    // With a day's retention (the default) all of them stay.
    expect((await clean({ sessionTimeboxMs: HOUR_MS }).pass()).total).toBe(0);

    const report = await clean({
      sessionTimeboxMs: HOUR_MS,
      revokedTokenRetentionMs: HOUR_MS,
      endedSessionRetentionMs: 2 * HOUR_MS,
    }).pass();

    expect(report.failures).toEqual([]);
    expect(report.removed).toMatchObject({
      refresh_tokens: 2,
      sessions_past_not_after: 1,
      sessions_past_timebox: 1,
    });
    // Revoked three and one and a half hours ago: gone; half an hour ago and the live one: kept.
    expect(await rows.present("refresh_tokens", tokens.ids)).toEqual(tokens.ids.slice(2));
    expect(await rows.present("sessions", [live, ended, endedLately, boxed])).toEqual([live, endedLately]);
  });

  it("takes many rows in small batches within one pass", async () => {
    const user = await rows.user();
    const session = await rows.session(user);
    const stamps = Array.from({ length: 230 }, () => ago(2 * DAY_MS));
    const family = await rows.family(user, session, stamps);

    const report = await clean({}, 25).pass();

    expect(report.removed.refresh_tokens).toBe(230);
    // 230 rows by 25: ten turns, the last one short, one that finds nothing left, and one turn
    // each for the other tasks, which find nothing.
    expect(report.turns).toBe(11 + cleanupTasks(SETTINGS).length - 1);
    expect(await rows.present("refresh_tokens", family.ids)).toEqual([family.ids[230]]);
  });

  it("runs each turn with its own lock and statement timeouts, not waiting for its commit's disk flush", async () => {
    const seen: Record<string, string>[] = [];
    const probe: CleanupTask = {
      name: "probe",
      run: async ({ sql }) => {
        const [row] = await sql`
          select
            current_setting('lock_timeout') as lock_timeout,
            current_setting('statement_timeout') as statement_timeout,
            current_setting('synchronous_commit') as synchronous_commit
        `;
        seen.push({ ...row });
        return 0;
      },
    };
    const report = await cleaner(ns.sql, [probe], {
      namespace: ns.namespace,
      batchSize: 100,
      lockTimeoutMs: 1_500,
      statementTimeoutMs: 4_000,
    }).pass();
    expect(report.failures).toEqual([]);
    expect(seen).toEqual([{ lock_timeout: "1500ms", statement_timeout: "4s", synchronous_commit: "off" }]);
    // Outside the turn's transaction, the connection's own settings are untouched.
    const [after] = await ns.sql`select current_setting('synchronous_commit') as synchronous_commit`;
    expect(after?.synchronous_commit).toBe("on");
  });

  it("two cleaners on two connections clean at once without deadlock or double counting", async () => {
    const families: { ids: number[] }[] = [];
    const sessions: string[] = [];
    for (let u = 0; u < 6; u++) {
      const user = await rows.user();
      for (let s = 0; s < 4; s++) {
        const session = await rows.session(user);
        sessions.push(session);
        families.push(
          await rows.family(
            user,
            session,
            Array.from({ length: 40 }, () => ago(2 * DAY_MS)),
          ),
        );
      }
      const ended = await rows.session(user, { notAfter: ago(3 * DAY_MS) });
      // Its one token is live: only the session's removal takes it (a cascade, not counted).
      await rows.family(user, ended, []);
    }
    for (let i = 0; i < 150; i++) await rows.auditEntry(ago(40 * DAY_MS));
    const second = connectTestDatabase({ maxPoolSize: 2 });
    try {
      const tasks = cleanupTasks(SETTINGS);
      const a = cleaner(ns.sql, tasks, { namespace: ns.namespace, batchSize: 7 });
      const b = cleaner(second, tasks, { namespace: ns.namespace, batchSize: 7 });
      const reports = await Promise.all([a.pass(), b.pass(), a.pass(), b.pass()]);

      expect(reports.flatMap((report) => report.failures)).toEqual([]);
      const sum = (task: string) => reports.reduce((n, report) => n + (report.removed[task] ?? 0), 0);
      // Every stale row removed once and counted once, whichever cleaner took it.
      expect(sum("refresh_tokens")).toBe(24 * 40);
      expect(sum("sessions_past_not_after")).toBe(6);
      expect(sum("audit_log_entries")).toBe(150);
      expect(a.affectedRows + b.affectedRows).toBe(reports.reduce((n, report) => n + report.total, 0));
      const liveIds = families.map((family) => family.ids[40]);
      expect(
        await rows.present(
          "refresh_tokens",
          families.flatMap((family) => family.ids),
        ),
      ).toEqual(liveIds);
      expect(await rows.present("sessions", sessions)).toEqual(sessions);
    } finally {
      await second.end();
    }
  });

  it("refreshes racing a pass answer as they would without it", async () => {
    const families: { session: string; hashes: string[] }[] = [];
    for (let u = 0; u < 4; u++) {
      const user = await rows.user();
      for (let s = 0; s < 3; s++) {
        const session = await rows.session(user);
        const family = await rows.family(
          user,
          session,
          Array.from({ length: 30 }, () => ago(2 * DAY_MS)),
        );
        families.push({ session, hashes: family.hashes });
      }
    }
    const second = connectTestDatabase({ maxPoolSize: 4 });
    try {
      const sessions = postgresSessionStore(second, { namespace: ns.namespace });
      const refresh = (tokenHash: string, childHash: string) =>
        sessions.grantRefresh({
          tokenHash,
          childHash,
          now: new Date(),
          rotationEnabled: true,
          reuseIntervalMs: 10_000,
          limits: { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false },
        });
      const cleaning = clean({}, 3).pass();
      // Each family's live token rotated five times while the pass removes its revoked ones.
      const chains = await Promise.all(
        families.map(async (family) => {
          let current = family.hashes[30] ?? "";
          const outcomes: string[] = [];
          const chain = [current];
          for (let i = 0; i < 5; i++) {
            const child = randomBytes(32).toString("hex");
            outcomes.push((await refresh(current, child)).kind);
            chain.push(child);
            current = child;
          }
          return { outcomes, chain };
        }),
      );
      const report = await cleaning;

      expect(report.failures).toEqual([]);
      for (const { outcomes } of chains) expect(outcomes).toEqual(Array(5).fill("rotated"));
      // Within the reuse interval the previous token still answers its child, as without cleanup.
      for (const { chain } of chains) {
        const previous = chain[4] ?? "";
        expect((await refresh(previous, chain[5] ?? "")).kind).toBe("reissued");
      }
      const remaining = await clean().pass();
      expect((report.removed.refresh_tokens ?? 0) + (remaining.removed.refresh_tokens ?? 0)).toBe(12 * 30);
      expect(
        await rows.present(
          "sessions",
          families.map((family) => family.session),
        ),
      ).toHaveLength(12);
      expect(await rows.count("refresh_tokens")).toBe(12 * 6);
    } finally {
      await second.end();
    }
  });

  it("a pass without its database reports the failure once and stops, and the next pass cleans", async () => {
    const user = await rows.user();
    const session = await rows.session(user);
    const family = await rows.family(user, session, [ago(2 * DAY_MS)]);
    const unreachable = connectTestDatabase({ maxPoolSize: 1 });
    await unreachable.end();
    const tasks = cleanupTasks(SETTINGS);

    const failed = await cleaner(unreachable, tasks, { namespace: ns.namespace, batchSize: 10 }).pass();

    expect(failed.failures.map((failure) => failure.task)).toEqual(["refresh_tokens"]);
    expect(failed.complete).toBe(false);
    expect(await rows.present("refresh_tokens", family.ids)).toEqual(family.ids);
    expect((await clean().pass()).removed.refresh_tokens).toBe(1);
  });
});
