#!lua
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key) decided
-- An included helper that calls a helper its own include brings in, with a key built from
-- ARGV[1]: the job key `ARGV[1] .. ':job'`.
--- @include "includes/touch_job"
redis.call('SET', KEYS[1], 'v')
return touchJob(ARGV[1], ':job')
