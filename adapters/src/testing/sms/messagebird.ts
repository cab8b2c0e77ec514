import {
  type FakeReply,
  type FakeRequest,
  formOf,
  randomHex,
  type SmsGatewayFake,
  startFakeGateway,
} from "./fake-server.js";

export interface MessagebirdFakeCredentials {
  readonly accessKey: string;
}

/** MessageBird's error body: a list of `{code, description, parameter}`. */
const messagebirdError = (
  status: number,
  code: number,
  description: string,
  parameter: string | null,
): FakeReply => ({
  status,
  body: { errors: [{ code, description, parameter }] },
});

/** A phone number (digits, an optional `+`) or an alphanumeric name of at most 11 characters. */
const validOriginator = (originator: string) =>
  /^\+?\d{1,17}$/.test(originator) || /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/.test(originator);

/** MSISDNs: international digits, no `+`. */
const MSISDN = /^[1-9]\d{6,14}$/;

interface Params {
  readonly recipients: string[];
  readonly originator: string;
  readonly body: string;
}

/** MessageBird takes JSON or a form; `recipients` as an array or a comma-separated list. */
function paramsOf(request: FakeRequest): Params {
  const form = formOf(request);
  if (form) {
    const recipients = form.getAll("recipients").flatMap((r) => r.split(","));
    return { recipients, originator: form.get("originator") ?? "", body: form.get("body") ?? "" };
  }
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(request.body);
    if (parsed && typeof parsed === "object") json = parsed as Record<string, unknown>;
  } catch {
    // An unreadable body reads as no parameters, as the gateway does.
  }
  const raw = json.recipients;
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [];
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  return {
    recipients: list.map((r) => (typeof r === "number" ? String(r) : text(r))),
    originator: text(json.originator),
    body: text(json.body),
  };
}

/**
 * A fake of MessageBird's SMS API: `POST /messages` with `Authorization: AccessKey <key>` and
 * `originator`, `recipients`, `body`. Answers 201 with the message object, 401/422 with
 * `{errors: [{code, description, parameter}]}` (codes 2, 9, 10 as the real API).
 */
export function startMessagebirdFake(credentials: MessagebirdFakeCredentials): Promise<SmsGatewayFake> {
  return startFakeGateway({
    serverError: messagebirdError(500, 99, "Internal error", null),
    rejected: messagebirdError(422, 25, "Not enough balance", null),
    handle(request, accept) {
      if (request.headers.authorization !== `AccessKey ${credentials.accessKey}`) {
        return messagebirdError(401, 2, "Request not allowed (incorrect access_key)", "access_key");
      }
      if (request.path !== "/messages" || request.method !== "POST") {
        return messagebirdError(404, 20, "message not found", null);
      }
      const { recipients, originator, body } = paramsOf(request);
      if (!originator) return messagebirdError(422, 9, "originator is required", "originator");
      if (!validOriginator(originator))
        return messagebirdError(422, 10, "originator is invalid", "originator");
      if (!body) return messagebirdError(422, 9, "body is required", "body");
      const valid = recipients.map((r) => r.trim()).filter((r) => MSISDN.test(r));
      if (valid.length === 0) return messagebirdError(422, 9, "no (correct) recipients found", "recipients");
      const id = randomHex(32);
      for (const to of valid) accept({ id, to, from: originator, body });
      const now = new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
      return {
        status: 201,
        body: {
          id,
          href: `https://rest.messagebird.com/messages/${id}`,
          direction: "mt",
          type: "sms",
          originator,
          body,
          reference: null,
          validity: null,
          gateway: 10,
          typeDetails: {},
          datacoding: "plain",
          mclass: 1,
          scheduledDatetime: null,
          createdDatetime: now,
          recipients: {
            totalCount: valid.length,
            totalSentCount: valid.length,
            totalDeliveredCount: 0,
            totalDeliveryFailedCount: 0,
            items: valid.map((r) => ({ recipient: Number(r), status: "sent", statusDatetime: now })),
          },
        },
      };
    },
  });
}
