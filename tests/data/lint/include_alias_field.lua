-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided
-- `r.cal` through an include's `local r = redis`: refused as `redis.cal` is.
--- @include "includes/api"
return r.cal('GET', KEYS[1])
