#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- An included helper never called writes ARGV[1]: its write never runs.
--- @include "includes/unused_write"
return redis.call('SET', KEYS[1], 'v')
