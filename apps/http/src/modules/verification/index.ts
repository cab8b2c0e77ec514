import { messageRoutes } from "../../routes/messages.js";
import { messageOperations } from "../../routes/messages.openapi.js";
import { verifyRoutes } from "../../routes/verify.js";
import { verifyOperations } from "../../routes/verify.openapi.js";
import type { HttpModule } from "../module.js";
import { routeFilesOf } from "../module.js";

/** `/verify` and the endpoints that send a code or a link: `/otp`, `/magiclink`, `/recover`, `/resend`. */
export const verificationModule: HttpModule = {
  name: "verification",
  routes: (ctx) => routeFilesOf(verifyRoutes(ctx.auth), messageRoutes()),
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
  operations: [...verifyOperations, ...messageOperations],
};
