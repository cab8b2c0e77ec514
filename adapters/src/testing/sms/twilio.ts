import {
  basicAuthOf,
  type FakeReply,
  formOf,
  randomHex,
  type SmsGatewayFake,
  startFakeGateway,
} from "./fake-server.js";

export interface TwilioFakeCredentials {
  readonly accountSid: string;
  readonly authToken: string;
  /** The account's one sender: a phone number (`+…`) or a messaging-service SID (`MG…`). */
  readonly sender: string;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Twilio's error body: `{code, message, more_info, status}` with the HTTP status repeated. */
const twilioError = (status: number, code: number, message: string): FakeReply => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});

/** Twilio's dates are RFC 2822 with a numeric zone. */
const rfc2822 = (date: Date) => date.toUTCString().replace("GMT", "+0000");

/**
 * A fake of Twilio's Programmable Messaging API: `POST /2010-04-01/Accounts/{sid}/Messages.json`
 * with Basic auth (account SID : auth token) and a form body `To`, `From` or `MessagingServiceSid`,
 * `Body`. Answers 201 with the message resource, or Twilio's error bodies (20003, 20404, 21211, …).
 */
export function startTwilioFake(credentials: TwilioFakeCredentials): Promise<SmsGatewayFake> {
  const { accountSid, authToken, sender } = credentials;
  const messagesPath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;
  return startFakeGateway({
    serverError: twilioError(500, 20500, "Internal Server Error"),
    rejected: twilioError(400, 21610, "Attempt to send to unsubscribed recipient"),
    handle(request, accept) {
      const auth = basicAuthOf(request);
      if (auth?.user !== accountSid || auth.password !== authToken) {
        return twilioError(401, 20003, "Authenticate");
      }
      if (request.path !== messagesPath) {
        return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
      }
      if (request.method !== "POST") return twilioError(405, 20004, "Method not allowed");
      // Twilio reads form bodies only: a JSON body leaves every parameter missing.
      const form = formOf(request) ?? new URLSearchParams();
      const to = form.get("To") ?? "";
      const from = form.get("From") ?? "";
      const service = form.get("MessagingServiceSid") ?? "";
      const body = form.get("Body") ?? "";
      const contentSid = form.get("ContentSid") ?? "";
      const contentVariables = form.get("ContentVariables") ?? "";
      // WhatsApp: both ends are `whatsapp:`-prefixed numbers (a messaging service has no prefix).
      const whatsapp = to.startsWith("whatsapp:");
      const number = whatsapp ? to.slice("whatsapp:".length) : to;
      const fromNumber = whatsapp && from.startsWith("whatsapp:") ? from.slice("whatsapp:".length) : from;
      if (!to) return twilioError(400, 21604, "A 'To' phone number is required.");
      if (!from && !service) return twilioError(400, 21603, "A 'From' phone number is required.");
      if (!body && !contentSid) return twilioError(400, 21602, "Message body is required.");
      if (whatsapp !== from.startsWith("whatsapp:") && !service) {
        return twilioError(
          400,
          63007,
          `Twilio could not find a Channel with the specified From address: ${from}`,
        );
      }
      if (body.length > 1600) {
        return twilioError(400, 21617, "The concatenated message body exceeds the 1600 character limit.");
      }
      if (!E164.test(number))
        return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (service && service !== sender) {
        return twilioError(400, 21705, `The Messaging Service Sid ${service} is invalid.`);
      }
      if (!service && fromNumber !== sender) {
        return twilioError(
          400,
          21606,
          `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
        );
      }
      const sid = `SM${randomHex(32)}`;
      accept({
        id: sid,
        to,
        from: from || service,
        body,
        ...(contentSid ? { contentSid, contentVariables } : {}),
      });
      const now = rfc2822(new Date());
      return {
        status: 201,
        body: {
          account_sid: accountSid,
          api_version: "2010-04-01",
          body,
          date_created: now,
          date_sent: null,
          date_updated: now,
          direction: "outbound-api",
          error_code: null,
          error_message: null,
          from: from || null,
          messaging_service_sid: service || null,
          num_media: "0",
          num_segments: String(body.length <= 160 ? 1 : Math.ceil(body.length / 153)),
          price: null,
          price_unit: "USD",
          sid,
          // Through a messaging service Twilio first answers `accepted`, then picks the sender.
          status: service ? "accepted" : "queued",
          subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
          to,
          uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
        },
      };
    },
  });
}
