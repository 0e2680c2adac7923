-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- `SELECT 1` in the block of `if true`, which surely runs: refused as `select_db.lua` is,
-- unlike a branch that may not run (`select_branch.lua`).
if true then
  redis.call('select', 1)
end
return redis.call('INCR', KEYS[1])
