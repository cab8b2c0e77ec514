import { describe, expect, it } from "vitest";
import { failures } from "../failures.js";
import { Outbox, transactionThenSend } from "./outbox.js";
import type { DeliveryFailure } from "./ports/delivery-queue.js";
import type { Transactor } from "./ports/transactor.js";
import { ok } from "./result.js";

/** A store that records what happens, and whether a transaction is open at each moment. */
function recordingStore() {
  const events: string[] = [];
  let open = 0;
  const store: Transactor<{ write(what: string): void }> = {
    async transaction(fn) {
      open++;
      try {
        return await fn({ write: (what) => void events.push(`write ${what}`) });
      } finally {
        open--;
        events.push("commit");
      }
    },
  };
  return { store, events, isOpen: () => open > 0 };
}

const deferred = () => {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("transactionThenSend", () => {
  it("sends only once the transaction has committed, all messages at once", async () => {
    const { store, events, isOpen } = recordingStore();
    const outbox = new Outbox<{ write(what: string): void }>();
    const gates = [deferred(), deferred()];
    let inFlight = 0;
    let maxInFlight = 0;
    const sending = transactionThenSend(store, outbox, async (repos) => {
      repos.write("token");
      for (const [i, gate] of gates.entries()) {
        outbox.add({
          send: async () => {
            expect(isOpen()).toBe(false);
            events.push(`send ${i}`);
            maxInFlight = Math.max(maxInFlight, ++inFlight);
            await gate.promise;
            inFlight--;
            return `id-${i}`;
          },
          undo: async () => void events.push(`undo ${i}`),
        });
      }
      return ok("done");
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(maxInFlight).toBe(2);
    for (const gate of gates) gate.resolve();
    expect(await sending).toEqual({ ok: true, value: "done" });
    expect(events).toEqual(["write token", "commit", "send 0", "send 1"]);
    expect(outbox.receipts).toEqual(["id-0", "id-1"]);
  });

  it("undoes every message in a new transaction when one send fails, and answers the failure", async () => {
    const { store, events } = recordingStore();
    const outbox = new Outbox<{ write(what: string): void }>();
    const result = await transactionThenSend(store, outbox, async () => {
      outbox.add({ send: async () => undefined, undo: async (repos) => repos.write("undo 0") });
      outbox.add({
        send: async () => {
          throw failures.emailSendFailed();
        },
        undo: async (repos) => repos.write("undo 1"),
      });
      return ok({});
    });
    expect(result).toMatchObject({ ok: false, error: { code: "email_send_failed" } });
    expect(events).toEqual(["commit", "write undo 0", "write undo 1", "commit"]);
  });

  it("refused by a cap: sends nothing, undoes, answers the refusal", async () => {
    const { store, events } = recordingStore();
    const outbox = new Outbox<{ write(what: string): void }>();
    const result = await transactionThenSend(store, outbox, async () => {
      outbox.add({
        reserve: async () => failures.emailRateLimit(),
        send: async () => {
          events.push("sent");
          return undefined;
        },
        undo: async (repos) => repos.write("undo"),
      });
      return ok({});
    });
    expect(result).toMatchObject({ ok: false, error: { code: "over_email_send_rate_limit" } });
    expect(events).toEqual(["commit", "write undo", "commit"]);
  });

  it("with a queue, answers at once and leaves the sends (and their undoing) to it", async () => {
    const { store, events } = recordingStore();
    const jobs: (() => Promise<DeliveryFailure | null>)[] = [];
    const outbox = new Outbox<{ write(what: string): void }>({
      later: { enqueue: (job) => void jobs.push(job) },
    });
    const result = await transactionThenSend(store, outbox, async () => {
      outbox.add({
        send: async () => {
          throw failures.emailSendFailed();
        },
        undo: async (repos) => repos.write("undo"),
      });
      outbox.onUndo(async (_repos, removedUser) => removedUser("user-1"));
      return ok({});
    });
    expect(result).toEqual({ ok: true, value: {} });
    expect(events).toEqual(["commit"]);
    const failure = await jobs[0]?.();
    // The queue gets the failure and the users its undoing removed (for the log line).
    expect(failure).toEqual({
      code: "email_send_failed",
      message: failures.emailSendFailed().message,
      removedUserIds: ["user-1"],
    });
    expect(events).toEqual(["commit", "write undo", "commit"]);
  });
});
