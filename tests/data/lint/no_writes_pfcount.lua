#!lua flags=no-writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- PFCOUNT in a read-only script: not flagged `write`, but `may-replicate`: refused.
return redis.call('PFCOUNT', KEYS[1])
