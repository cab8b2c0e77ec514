import { failures } from "../../failures.js";
import { err, ok, type Result } from "../../kernel/index.js";
import type { PkceDeps, PkceRepositories } from "../deps.js";
import type { FlowState, PkceChallenge } from "../flow-state.js";

type Deps = Pick<PkceDeps, "random" | "tokens">;

/** A new flow state with nothing issued yet: the fields every flow fills, the rest null. */
export function newFlowState(
  deps: Pick<PkceDeps, "random">,
  fields: {
    providerType: string;
    authenticationMethod: string;
    challenge: PkceChallenge | null;
    now: Date;
    userId?: string | null;
    referrer?: string | null;
    linkingTargetId?: string | null;
  },
): FlowState {
  return {
    id: deps.random.uuid(),
    userId: fields.userId ?? null,
    authCodeHash: null,
    codeChallenge: fields.challenge?.codeChallenge ?? null,
    codeChallengeMethod: fields.challenge?.method ?? null,
    providerType: fields.providerType,
    providerAccessToken: null,
    providerRefreshToken: null,
    authenticationMethod: fields.authenticationMethod,
    authCodeIssuedAt: null,
    referrer: fields.referrer ?? null,
    linkingTargetId: fields.linkingTargetId ?? null,
    createdAt: fields.now,
    updatedAt: fields.now,
  };
}

/**
 * Records, in the caller's transaction, that the link about to be mailed to `userId` belongs to a
 * PKCE flow: following it will yield a code for `authenticationMethod` instead of a session.
 */
export async function startEmailFlow(
  deps: Pick<PkceDeps, "random">,
  repos: Pick<PkceRepositories, "flowStates">,
  input: { userId: string; authenticationMethod: string; challenge: PkceChallenge; now: Date },
): Promise<void> {
  await repos.flowStates.create(
    newFlowState(deps, {
      providerType: "email",
      authenticationMethod: input.authenticationMethod,
      challenge: input.challenge,
      userId: input.userId,
      now: input.now,
    }),
  );
}

/**
 * Issues the code of the user's newest PKCE flow of `authenticationMethod` (a followed PKCE link).
 * Only its hash is stored; the code itself goes once into the redirect. None: `flow_state_not_found`.
 */
export async function issueAuthCode(
  deps: Deps,
  repos: Pick<PkceRepositories, "flowStates">,
  input: { userId: string; authenticationMethod: string; now: Date },
): Promise<Result<string>> {
  const code = deps.random.uuid();
  const state = await repos.flowStates.issueCode(
    input.userId,
    input.authenticationMethod,
    deps.tokens.hash(code),
    input.now,
  );
  return state === null ? err(failures.noFlowStateForUser()) : ok(code);
}

/** Stores a flow state that already holds its user and code (an external sign-in's callback). */
export async function storeIssuedFlow(
  deps: Deps,
  repos: Pick<PkceRepositories, "flowStates">,
  state: FlowState,
  now: Date,
): Promise<string> {
  const code = deps.random.uuid();
  await repos.flowStates.create({
    ...state,
    authCodeHash: deps.tokens.hash(code),
    authCodeIssuedAt: now,
    updatedAt: now,
  });
  return code;
}
