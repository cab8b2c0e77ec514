import { sectionOf } from "../../config/sections/section.js";
import * as web3 from "../../config/sections/web3.js";
import { web3HttpGrant } from "../../routes/grants/web3.js";
import { web3PortsOf } from "../../wiring/web3.js";
import type { HttpModule } from "../module.js";

/** Web3 sign-in: the `web3` grant (Sign in with Ethereum, Sign in with Solana). */
export const web3Module: HttpModule = {
  name: "web3",
  section: sectionOf(web3),
  settings: (config) => web3.web3Settings(config),
  ports: (ctx) => web3PortsOf(ctx),
  grants: [web3HttpGrant],
  statuses: {
    web3_provider_disabled: 422,
    web3_unsupported_chain: 400,
  },
};
