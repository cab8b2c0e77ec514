import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { web3PortsOf } from "./ports.js";
import * as web3 from "./section.js";
import { web3HttpGrant } from "./web3-grant.js";

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
