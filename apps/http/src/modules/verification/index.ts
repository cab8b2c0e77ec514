import type { HttpModule } from "../module.js";
import { messageEndpoints } from "./messages.js";
import { verifyEndpoints } from "./verify.js";

/** `/verify` and the endpoints that send a code or a link: `/otp`, `/magiclink`, `/recover`, `/resend`. */
export const verificationModule: HttpModule = {
  name: "verification",
  endpoints: [...verifyEndpoints, ...messageEndpoints],
  statuses: {
    otp_expired: 403,
    otp_disabled: 422,
    email_not_confirmed: 400,
    phone_not_confirmed: 400,
  },
  failureStatuses: {
    // The reference answers a magic link request without an email with 422, other missing fields with 400.
    magicLinkEmailMissing: 422,
    // GET /verify answers a PKCE link without its flow state with 400 (the grant's own lookup is 404).
    noFlowStateForUser: 400,
  },
};
