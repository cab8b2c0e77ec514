import type { MakeStore } from "../harness.js";
import { describeOAuthAuthorizationStoreContract } from "./oauth-authorizations.contract.js";
import { describeOAuthClientStoreContract } from "./oauth-clients.contract.js";
import { describeOAuthConsentStoreContract } from "./oauth-consents.contract.js";

/** The OAuth server's stores: clients, authorization requests (single-use codes), consents. */
export function describeOAuthStoreContract(name: string, makeStore: MakeStore): void {
  describeOAuthClientStoreContract(name, makeStore);
  describeOAuthAuthorizationStoreContract(name, makeStore);
  describeOAuthConsentStoreContract(name, makeStore);
}
