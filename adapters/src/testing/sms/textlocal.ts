import { type FakeReply, formOf, type SmsGatewayFake, startFakeGateway } from "./fake-server.js";

export interface TextlocalFakeCredentials {
  readonly apiKey: string;
}

/** Textlocal answers 200 whatever happened; `status` says which. */
const textlocalError = (code: number, message: string): FakeReply => ({
  status: 200,
  body: { errors: [{ code, message }], status: "failure" },
});

/** 3 to 11 alphanumeric characters, or up to 13 digits. */
const validSender = (sender: string) => /^[A-Za-z0-9 ]{3,11}$/.test(sender) || /^\d{3,13}$/.test(sender);

/** International format, digits only (447123456789). */
const NUMBER = /^[1-9]\d{6,14}$/;

let nextId = 1_151_346_216;

/**
 * A fake of Textlocal's `POST /send/` (form: `apikey`, `numbers` comma-separated, `sender`,
 * `message`). Answers `{status: "success", messages: [{id, recipient}], …}` or
 * `{status: "failure", errors: [{code, message}]}` with Textlocal's codes (3, 4, 5, 6, 43, 44, 51).
 */
export function startTextlocalFake(credentials: TextlocalFakeCredentials): Promise<SmsGatewayFake> {
  return startFakeGateway({
    serverError: { status: 500, body: "<html><body><h1>500 Internal Server Error</h1></body></html>" },
    rejected: textlocalError(7, "Insufficient credits"),
    handle(request, accept) {
      // The API takes its parameters from a POST form or the query string; we only send forms.
      const form = formOf(request) ?? new URLSearchParams();
      const apiKey = form.get("apikey") ?? form.get("apiKey");
      if (apiKey !== credentials.apiKey) return textlocalError(3, "Invalid login details");
      if (request.path.replace(/\/$/, "") !== "/send") return textlocalError(2, "Unrecognised command");
      const numbers = (form.get("numbers") ?? "")
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean);
      const sender = form.get("sender") ?? "";
      const message = form.get("message") ?? "";
      if (numbers.length === 0) return textlocalError(4, "No recipients specified");
      if (!message) return textlocalError(5, "No message content");
      if (message.length > 918) return textlocalError(6, "Message too long");
      if (!sender) return textlocalError(44, "No sender name specified");
      if (!validSender(sender)) return textlocalError(43, "Invalid sender name");
      const valid = numbers.filter((n) => NUMBER.test(n));
      if (valid.length === 0) return textlocalError(51, "No valid numbers specified");
      const sent = valid.map((to) => ({ id: String(nextId++), to }));
      for (const { id, to } of sent) accept({ id, to, from: sender, body: message });
      const parts = message.length <= 160 ? 1 : Math.ceil(message.length / 153);
      return {
        status: 200,
        body: {
          balance: 1162,
          batch_id: 123_456_789,
          cost: parts * valid.length,
          num_messages: valid.length,
          message: { num_parts: parts, sender, content: message },
          receipt_url: "",
          custom: "",
          messages: sent.map(({ id, to }) => ({ id, recipient: Number(to) })),
          status: "success",
        },
      };
    },
  });
}
