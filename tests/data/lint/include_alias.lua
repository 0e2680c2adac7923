#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `local r = redis` in an include (bullmq's `--- @include`): the server runs the include's
-- text in place of its line, so `r` and `local c = r.call` are the API here.
--- @include "includes/api"
local c = r.call
r.call('SET', KEYS[1], 'v')
return c('SET', ARGV[1], 'v')
