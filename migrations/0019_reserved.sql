-- 0019: number reserved for a migration of a concurrent change; this file keeps the sequence unbroken
-- until that migration takes its place.
select 1;
