import { type FakeReply, formOf, randomHex, type SmsGatewayFake, startFakeGateway } from "./fake-server.js";

export interface VonageFakeCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

/** The SMS API answers 200 whatever happened; a non-"0" `status` per message says it failed. */
const vonageError = (status: string, errorText: string): FakeReply => ({
  status: 200,
  body: { "message-count": "1", messages: [{ status, "error-text": errorText }] },
});

/** A number of up to 15 digits, or an alphanumeric name of at most 11 characters. */
const validFrom = (from: string) => /^\d{1,15}$/.test(from) || /^[A-Za-z0-9 ]{1,11}$/.test(from);

/** GSM 03.38 (basic set and extension table): what a `text` message can carry. */
const GSM =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà^{}\\[~]|€";

/** Without `type=unicode`, the real API replaces what GSM cannot encode, so the recipient sees `?`. */
const asDelivered = (text: string, type: string | null) =>
  type === "unicode" ? text : [...text].map((ch) => (GSM.includes(ch) ? ch : "?")).join("");

/** E.164 without the `+`. */
const TO = /^[1-9]\d{6,14}$/;

/**
 * A fake of Vonage's (Nexmo's) SMS API: `POST /sms/json` with a form `api_key`, `api_secret`, `from`,
 * `to`, `text` (and `type=unicode` for non-GSM text). Answers `{"message-count", messages: [{status,
 * "message-id", …}]}`, a failure being a message with status 2 (missing), 3 (invalid), 4 (bad credentials).
 */
export function startVonageFake(credentials: VonageFakeCredentials): Promise<SmsGatewayFake> {
  return startFakeGateway({
    serverError: { status: 500, body: "<html><body><h1>500 Internal Server Error</h1></body></html>" },
    rejected: vonageError("9", "Quota Exceeded - rejected"),
    handle(request, accept) {
      if (request.path !== "/sms/json") return { status: 404, body: "<html><body>Not Found</body></html>" };
      const form = formOf(request) ?? new URLSearchParams();
      const apiKey = form.get("api_key");
      const apiSecret = form.get("api_secret");
      if (!apiKey) return vonageError("2", "Missing api_key");
      if (!apiSecret) return vonageError("2", "Missing api_secret");
      if (apiKey !== credentials.apiKey || apiSecret !== credentials.apiSecret) {
        return vonageError("4", "Bad Credentials");
      }
      const from = form.get("from") ?? "";
      const to = form.get("to") ?? "";
      const text = form.get("text") ?? "";
      if (!from) return vonageError("2", "Missing from param");
      if (!to) return vonageError("2", "Missing to param");
      if (!text) return vonageError("2", "Missing text param");
      if (!validFrom(from)) return vonageError("3", "Invalid from param");
      if (!TO.test(to)) return vonageError("3", "Invalid to param");
      const id = randomHex(16).toUpperCase();
      accept({ id, to, from, body: asDelivered(text, form.get("type")) });
      return {
        status: 200,
        body: {
          "message-count": "1",
          messages: [
            {
              to,
              "message-id": id,
              status: "0",
              "remaining-balance": "15.53590000",
              "message-price": "0.03330000",
              network: "23410",
            },
          ],
        },
      };
    },
  });
}
