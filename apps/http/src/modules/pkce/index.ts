import type { HttpModule } from "../module.js";
import { pkceHttpGrant } from "./pkce-grant.js";

/** The PKCE flow: its flow states and the `pkce` grant. */
export const pkceModule: HttpModule = {
  name: "pkce",
  grants: [pkceHttpGrant],
  statuses: {
    flow_state_not_found: 404,
    flow_state_expired: 422,
    bad_code_verifier: 400,
    flow_state_already_used: 400,
  },
};
