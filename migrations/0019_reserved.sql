-- 0019: a number another change takes (custom OAuth providers, br/custom). This file only keeps
-- the numbers contiguous until that change lands; it is deleted when the two meet.
select 1;
