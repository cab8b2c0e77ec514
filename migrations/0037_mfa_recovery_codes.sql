-- 0037_mfa_recovery_codes: single-use recovery codes, the reference's `recovery_code` factor.
--
-- A user has one recovery-code factor at most (verified from the start, next to another verified
-- factor); its codes live here, one row each, only as the SHA-256 of the code's canonical form (16
-- base32 characters: 80 bits, so a plain hash cannot be reversed by guessing). A code is used once:
-- `used_at` is set by one statement that a second use of the same code finds done. Guessing is
-- counted on the factor's row of mfa_factor_attempts (0015), as for any factor. The codes go with
-- their factor.

alter type {{namespace}}.factor_type add value if not exists 'recovery_code';

create table {{namespace}}.mfa_recovery_codes (
  id uuid not null,
  factor_id uuid not null,
  code_hash text not null check (char_length(code_hash) = 64),
  created_at timestamptz not null,
  used_at timestamptz,
  constraint mfa_recovery_codes_pkey primary key (id),
  constraint mfa_recovery_codes_factor_id_fkey foreign key (factor_id)
    references {{namespace}}.mfa_factors (id) on delete cascade
);

create index mfa_recovery_codes_factor_id_idx on {{namespace}}.mfa_recovery_codes (factor_id);

alter table {{namespace}}.mfa_recovery_codes enable row level security;
