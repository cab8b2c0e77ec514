import { fakeStore } from "./fake-store.js";
import { describeStoreContract } from "./store.contract.js";

describeStoreContract("fake store", async () => {
  const store = fakeStore();
  return { store, cleanup: async () => {}, auditEntries: async () => store.tables.audit };
});
