import { GoTrueClient } from "@supabase/auth-js";

/**
 * An auth-js client as a browser app holds it: the session (and, in the PKCE flow, the code verifier)
 * kept in a storage of its own, which the caller may look into.
 */
export function browserClient(url: string, flowType: "implicit" | "pkce" = "implicit") {
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
  const client = new GoTrueClient({ url, flowType, storage, autoRefreshToken: false, persistSession: true });
  return { client, items };
}
