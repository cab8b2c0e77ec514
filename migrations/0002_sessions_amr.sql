-- 0002_sessions_amr: what the SessionStore port needs that 0001 lacks.
--
-- amr: the authentication methods of the session (the `amr` claim), as a jsonb array of
-- {"method": text, "timestamp": unix seconds}. GoTrue keeps them in mfa_amr_claims, one row per method;
-- we have no MFA yet and read the session on every refresh, so one column saves a join. A later MFA
-- migration can still add mfa_amr_claims for tools that read it.
alter table {{namespace}}.sessions
  add column amr jsonb not null default '[]'::jsonb,
  add constraint sessions_amr_is_array check (jsonb_typeof(amr) = 'array');

-- Every session starts at aal1 (as in GoTrue); a row inserted without aal (by hand, by another tool)
-- must not read as "no assurance level".
alter table {{namespace}}.sessions alter column aal set default 'aal1';
update {{namespace}}.sessions set aal = 'aal1' where aal is null;
