import type { OAuthAuthorization, OAuthConsent, OAuthScope } from "../authorization.js";
import type { OAuthClient } from "../client.js";

/** The registered clients. A soft-deleted client is invisible to every read. */
export interface OAuthClientStore {
  insert(client: OAuthClient): Promise<void>;
  /** The live client with this id; null for an unknown, deleted or malformed id. */
  find(id: string): Promise<OAuthClient | null>;
  /** The live clients newest first, `limit` of them from the `offset`th; `total`: how many there are. */
  list(page: { offset: number; limit: number }): Promise<{ clients: OAuthClient[]; total: number }>;
  /** The live client whose `client_id` is this URL (a client ID metadata document's), or null. */
  findByMetadataUrl(url: string): Promise<OAuthClient | null>;
  /**
   * Stores the client a metadata document describes: inserted under its `id` when no live client has
   * its URL, else the live one's fields replaced (its `id` and `createdAt` kept). Answers the client as
   * stored; of concurrent saves of one URL, one row results.
   */
  saveMetadataClient(client: OAuthClient): Promise<OAuthClient>;
  /** Replaces the live client's fields; false when there is none. */
  update(client: OAuthClient): Promise<boolean>;
  /** Marks the client deleted and ends its sessions; false when there was no live one. */
  softDelete(id: string, at: Date): Promise<boolean>;
}

/** Authorization requests, by their public id and by their code. */
export interface OAuthAuthorizationStore {
  insert(authorization: OAuthAuthorization): Promise<void>;
  /**
   * Reads and row-locks the request with this public id. A request another transaction holds reads as
   * absent (`skip locked`), so two consent calls never both act on one request.
   */
  lockByAuthorizationId(authorizationId: string): Promise<OAuthAuthorization | null>;
  /**
   * Reads and row-locks the approved request whose code hashes to `codeHash`, spent or not (a spent
   * one has its `sessionId`); waits for a holder.
   */
  lockApprovedByCode(codeHash: string): Promise<OAuthAuthorization | null>;
  update(authorization: OAuthAuthorization): Promise<void>;
  /**
   * Spends the request's code on the exchange that starts `sessionId`, which the request keeps until
   * the cleanup removes it; false when the code was already spent.
   */
  spend(id: string, sessionId: string): Promise<boolean>;
  /**
   * Stores a device's request (its `device` set); false, storing nothing, when another request holds
   * the same user code (the caller draws another).
   */
  insertDevice(authorization: OAuthAuthorization): Promise<boolean>;
  /** The device request whose user code's MAC is `userCodeHash`, unlocked; null when none. */
  findByUserCode(userCodeHash: string): Promise<OAuthAuthorization | null>;
  /** Reads and row-locks the device request whose device code hashes to `deviceCodeHash`; waits for a holder. */
  lockByDeviceCode(deviceCodeHash: string): Promise<OAuthAuthorization | null>;
}

/** A consent with its client, as the user's list of consents (`GET /user/oauth/grants`) shows it. */
export interface ConsentView {
  readonly client: OAuthClient;
  readonly consent: OAuthConsent;
}

/** The consents users gave clients, one per (user, client). */
export interface OAuthConsentStore {
  /** The unrevoked consent of the user for the client, or null. */
  findActive(userId: string, clientId: string): Promise<OAuthConsent | null>;
  /**
   * Records the user's approval of `scopes` and `resources` at `grantedAt`: added to those of an
   * unrevoked consent (a narrower approval never takes back what the user granted before), replacing
   * those of a revoked one, whose revocation it clears; one row per (user, client) however many
   * approvals race, none of their scopes or resources lost.
   */
  approve(consent: OAuthConsent): Promise<void>;
  /** The user's unrevoked consents of live clients, newest first. */
  listActive(userId: string): Promise<ConsentView[]>;
  /**
   * Revokes the user's consent for the client and deletes the sessions issued to the client for the
   * user; false when there was no unrevoked consent.
   */
  revoke(userId: string, clientId: string, at: Date): Promise<boolean>;
}

/** An authorization request a client pushed (RFC 9126), waiting for `/oauth/authorize?request_uri=`. */
export interface OAuthPushedRequest {
  readonly id: string;
  /** Keyed hash of the random part of the `request_uri` handed to the client. */
  readonly requestUriHash: string;
  readonly clientId: string;
  /** The authorization request's parameters, as pushed and checked. */
  readonly parameters: Readonly<Record<string, string>>;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Pushed authorization requests: each used at most once, by its client, before it expires. */
export interface OAuthPushedRequestStore {
  insert(request: OAuthPushedRequest): Promise<void>;
  /**
   * Takes the request: removes and answers it when its `request_uri` hashes to `requestUriHash`, it
   * was pushed by `clientId` and has not expired at `now`; null otherwise (unknown, another client's,
   * expired, already taken). Of two takers of one request exactly one gets it.
   */
  take(requestUriHash: string, clientId: string, now: Date): Promise<OAuthPushedRequest | null>;
}

/** The `jti` of the client assertions (RFC 7523) used, each refused a second time until it expires. */
export interface OAuthClientAssertionStore {
  /**
   * Records the use of the client's assertion `jti`, remembered until `expiresAt`; false when it was
   * already used and is still remembered at `now`. Of two racing uses exactly one is true.
   */
  use(clientId: string, jti: string, expiresAt: Date, now: Date): Promise<boolean>;
}

/** The custom scopes the operator defined (`/admin/oauth/scopes`), by their unique name. */
export interface OAuthScopeStore {
  /** Adds the scope; false when one of that name exists (nothing changed). */
  insert(scope: OAuthScope): Promise<boolean>;
  /** Every custom scope, by name. */
  list(): Promise<OAuthScope[]>;
  /** The custom scopes among `names` (unknown names are left out). */
  find(names: readonly string[]): Promise<OAuthScope[]>;
  /** Removes the scope; false when there was none of that name. */
  delete(scope: string): Promise<boolean>;
}
