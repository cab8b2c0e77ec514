import { web3HttpGrant } from "../../routes/grants/web3.js";
import type { HttpModule } from "../module.js";

/** Web3 sign-in: the `web3` grant. */
export const web3Module: HttpModule = {
  name: "web3",
  grants: [web3HttpGrant],
  statuses: {
    web3_provider_disabled: 422,
    web3_unsupported_chain: 400,
  },
};
