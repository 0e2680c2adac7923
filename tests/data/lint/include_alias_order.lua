#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `local r = {}`, then the include's `local r = redis` put at its line: from there on `r` is
-- the include's, the API.
local r = {}
--- @include "includes/api"
r.call('SET', KEYS[1], 'v')
return r.call('SET', ARGV[1], 'v')
