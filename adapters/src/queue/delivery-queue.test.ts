import { describe, expect, it } from "vitest";
import { deliveryQueue } from "./delivery-queue.js";

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("deliveryQueue", () => {
  it("runs up to `concurrency` deliveries at once and reports failures and faults", async () => {
    const failures: string[] = [];
    const faults: unknown[] = [];
    const queue = deliveryQueue({
      concurrency: 3,
      onFailure: (f) => void failures.push(f.code),
      onFault: (f) => void faults.push(f),
    });
    let running = 0;
    let most = 0;
    for (let i = 0; i < 7; i++) {
      queue.enqueue(async () => {
        most = Math.max(most, ++running);
        await later(20);
        running--;
        if (i === 1) return { code: "email_send_failed", message: "Error sending email" };
        if (i === 2) throw new Error("database gone");
        return null;
      });
    }
    expect(queue.pending).toBe(7);
    expect(await queue.drain(5_000)).toBe(0);
    expect(most).toBe(3);
    expect(failures).toEqual(["email_send_failed"]);
    expect(faults).toMatchObject([{ message: "database gone" }]);
    expect(queue.failed).toBe(2);
  });

  it("drain is bounded, and once draining nothing new is accepted", async () => {
    const faults: unknown[] = [];
    const queue = deliveryQueue({ concurrency: 1, onFailure: () => {}, onFault: (f) => void faults.push(f) });
    queue.enqueue(async () => {
      await later(1_000);
      return null;
    });
    const started = Date.now();
    expect(await queue.drain(50)).toBe(1);
    expect(Date.now() - started).toBeLessThan(500);
    queue.enqueue(async () => null);
    expect(faults).toMatchObject([{ message: expect.stringContaining("closed") }]);
  });

  it("refuses a concurrency that is not a positive integer", () => {
    expect(() => deliveryQueue({ concurrency: 0, onFailure: () => {}, onFault: () => {} })).toThrow(
      /concurrency/,
    );
  });
});
