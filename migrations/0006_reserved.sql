-- 0006_reserved: holds number 0006, which another change of the schema takes; migration numbers must run
-- without a gap. Drop this file when that migration lands beside 0007.
select 1;
