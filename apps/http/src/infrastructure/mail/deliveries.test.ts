import { describe, expect, it } from "vitest";
import { memoryLogger } from "../../testing/memory-log.js";
import { deliveriesOf } from "./deliveries.js";

describe("deliveriesOf", () => {
  it("says why a user went when its confirmation could not be delivered, by id, without the address", async () => {
    const log = memoryLogger();
    const queue = deliveriesOf(log.logger);
    queue.enqueue(async () => ({
      code: "email_send_failed",
      message: "Error sending email: no SMTP_HOST is configured",
      removedUserIds: ["11111111-1111-4111-8111-111111111111"],
    }));
    queue.enqueue(async () => ({ code: "email_send_failed", message: "Error sending email" }));
    expect(await queue.drain(1_000)).toBe(0);
    const warnings = log.lines().filter((line) => line.level === "warn");
    expect(warnings).toMatchObject([
      {
        msg: expect.stringContaining("was removed because its confirmation could not be delivered"),
        error_code: "email_send_failed",
        error: "Error sending email: no SMTP_HOST is configured",
        removed_user_ids: ["11111111-1111-4111-8111-111111111111"],
      },
      { msg: "message not delivered: its code was withdrawn, the user may ask again" },
    ]);
    expect(warnings[1]).not.toHaveProperty("removed_user_ids");
  });
});
