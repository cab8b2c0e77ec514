-- 0015_mfa_attempts: MFA codes cannot be guessed. Each code tried is counted, before it is checked,
-- against its challenge (a challenge takes a few, then is void) and against its factor (wrong codes in
-- a row impose a doubling wait), and a TOTP factor remembers the time step of the last code it accepted
-- so that no code proves anything twice (RFC 6238 §5.2). The reference has none of this.
--
-- The factor's counters live in a table of their own, not in mfa_factors: a wrong code must not rewrite
-- the user's snapshot (0013's triggers on mfa_factors), and the user's body never shows them. A row is
-- made at the factor's first attempt and goes with the factor.

alter table {{namespace}}.mfa_challenges
  add column attempts integer not null default 0;

create table {{namespace}}.mfa_factor_attempts (
  factor_id uuid not null,
  -- Codes tried since the factor last accepted one.
  failed_attempts integer not null default 0,
  -- No code is checked before this instant.
  locked_until timestamptz,
  -- TOTP: the time step (Unix seconds / 30) of the last accepted code.
  last_totp_step integer,
  constraint mfa_factor_attempts_pkey primary key (factor_id),
  constraint mfa_factor_attempts_factor_id_fkey foreign key (factor_id)
    references {{namespace}}.mfa_factors (id) on delete cascade
);

alter table {{namespace}}.mfa_factor_attempts enable row level security;
