import type { Factor } from "../../accounts/index.js";
import type {
  Challenge,
  ChallengeStore,
  FactorAttempts,
  FactorStore,
  SecretBox,
  SessionAssurance,
  Totp,
} from "../../mfa/index.js";
import type { FakeTables } from "../fake-tables.js";

const byCreation = (a: Factor, b: Factor) => a.createdAt.getTime() - b.createdAt.getTime();

/** The guessing state of a factor never attempted. */
const unattempted: FactorAttempts = { failedAttempts: 0, lockedUntil: null, lastTotpStep: null };

/** Factors over the shared in-memory tables, with the uniqueness rules of the real table. */
export function fakeFactors(t: FakeTables): FactorStore {
  const clash = (f: Factor): "name_taken" | "phone_taken" | null => {
    for (const other of t.factors.values()) {
      if (other.id === f.id || other.userId !== f.userId) continue;
      if (f.friendlyName.trim() !== "" && other.friendlyName === f.friendlyName) return "name_taken";
      if (f.phone !== null && other.phone === f.phone) return "phone_taken";
    }
    return null;
  };
  const drop = (id: string) => {
    for (const [k, c] of t.challenges) if (c.factorId === id) t.challenges.delete(k);
    t.factorAttempts.delete(id);
    return t.factors.delete(id);
  };
  return {
    listByUser: async (userId) => [...t.factors.values()].filter((f) => f.userId === userId).sort(byCreation),
    insert: async (f) => {
      const refused = clash(f);
      if (refused) return refused;
      t.factors.set(f.id, f);
      return "inserted";
    },
    findOwned: async (userId, id) => {
      const f = t.factors.get(id);
      return f && f.userId === userId ? f : null;
    },
    // The row lock is the fake store's transaction's (fake-store.ts).
    lockOwned: async (userId, id) => {
      const f = t.factors.get(id);
      return f && f.userId === userId
        ? { factor: f, attempts: t.factorAttempts.get(id) ?? unattempted }
        : null;
    },
    setAttempts: async (id, attempts) => {
      if (t.factors.has(id)) t.factorAttempts.set(id, attempts);
    },
    update: async (f) => {
      const refused = clash(f);
      if (refused) return refused;
      const stored = t.factors.get(f.id);
      // A factor given without its WebAuthn credential leaves the stored one, as the table does.
      if (stored)
        t.factors.set(
          f.id,
          f.webauthnCredential === undefined ? { ...f, webauthnCredential: stored.webauthnCredential } : f,
        );
      return "updated";
    },
    delete: async (id) => drop(id),
    deleteUnverified: async (userId, type, exceptId) => {
      const gone = [...t.factors.values()].filter(
        (f) => f.userId === userId && f.factorType === type && f.status === "unverified" && f.id !== exceptId,
      );
      for (const f of gone) drop(f.id);
      return gone.length;
    },
    deleteUnverifiedBefore: async (userId, before) => {
      const gone = [...t.factors.values()].filter(
        (f) => f.userId === userId && f.status === "unverified" && f.createdAt < before,
      );
      for (const f of gone) drop(f.id);
      return gone.length;
    },
  };
}

export function fakeChallenges(t: FakeTables): ChallengeStore {
  return {
    insert: async (c) => void t.challenges.set(c.id, c),
    findOfFactor: async (factorId, id) => {
      const c = t.challenges.get(id);
      return c && c.factorId === factorId ? c : null;
    },
    countAttempt: async (id, max) => {
      const c = t.challenges.get(id);
      if (!c || c.attempts >= max) return false;
      t.challenges.set(id, { ...c, attempts: c.attempts + 1 });
      return true;
    },
    markVerified: async (id, at) => {
      const c = t.challenges.get(id);
      if (!c || c.verifiedAt !== null) return false;
      t.challenges.set(id, { ...c, verifiedAt: at } satisfies Challenge);
      return true;
    },
    delete: async (id) => void t.challenges.delete(id),
  };
}

export function fakeAssurance(t: FakeTables): SessionAssurance {
  return {
    raise: async (sessionId, { amr, factorId, at }) => {
      const s = t.sessions.get(sessionId);
      if (!s) return;
      t.sessions.set(sessionId, { ...s, aal: "aal2", amr, updatedAt: at });
      t.sessionFactors.set(sessionId, factorId);
    },
    deleteBelowAal2: async (userId, exceptId) => {
      const gone = [...t.sessions.values()].filter(
        (s) => s.userId === userId && s.aal !== "aal2" && s.id !== exceptId,
      );
      for (const s of gone) {
        t.sessions.delete(s.id);
        for (const [k, r] of t.tokens) if (r.sessionId === s.id) t.tokens.delete(k);
      }
      return gone.length;
    },
    lowerRaisedBy: async (factorId, method, at) => {
      let count = 0;
      for (const [sessionId, raisedBy] of t.sessionFactors) {
        const s = t.sessions.get(sessionId);
        if (raisedBy !== factorId || !s) continue;
        t.sessions.set(sessionId, {
          ...s,
          aal: "aal1",
          amr: s.amr.filter((e) => e.method !== method),
          updatedAt: at,
        });
        t.sessionFactors.delete(sessionId);
        count++;
      }
      return count;
    },
  };
}

/**
 * A TOTP stand-in: secrets `SECRET<n>`, and a code per secret and 30-second step that tests compute
 * with `codeAt`. One step either side is accepted, as the real one does.
 */
export function fakeTotp(): Totp & { codeAt(secret: string, at: Date): string } {
  let n = 0;
  const codeOf = (secret: string, step: number) => {
    let h = 7;
    for (const ch of `${secret}/${step}`) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000;
    return String(h).padStart(6, "0");
  };
  const stepOf = (at: Date) => Math.floor(at.getTime() / 30_000);
  return {
    enrol: async ({ issuer, accountName }) => {
      const secret = `SECRET${++n}`;
      const uri = `otpauth://totp/${issuer}:${accountName}?secret=${secret}&issuer=${issuer}`;
      return { secret, uri, qrCode: `<svg>${uri}</svg>` };
    },
    match: (secret, code, at) => {
      const step = [-1, 0, 1].map((d) => stepOf(at) + d).find((s) => codeOf(secret, s) === code);
      return step ?? null;
    },
    codeAt: (secret, at) => codeOf(secret, stepOf(at)),
  };
}

/**
 * Readable sealing, bound to the row like the real one: `sealed(<row>)<plaintext>`; a value sealed
 * with an older key reads `old-sealed(<row>)<plaintext>` and still opens.
 */
export function fakeSecretBox(): SecretBox {
  return {
    isCurrent: (sealed) => sealed.startsWith("sealed("),
    seal: (rowId, plaintext) => `sealed(${rowId})${plaintext}`,
    open: (rowId, sealed) => {
      const prefix = [`sealed(${rowId})`, `old-sealed(${rowId})`].find((p) => sealed.startsWith(p));
      return prefix === undefined ? null : sealed.slice(prefix.length);
    },
  };
}
