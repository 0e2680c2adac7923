-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- The include's line inside a `do` block: its `local r = redis` ends with the block, and
-- `r` after it is a global no server has ("nonexistent global variable 'r'").
do
--- @include "includes/api"
end
return r.call('SET', KEYS[1], 'v')
