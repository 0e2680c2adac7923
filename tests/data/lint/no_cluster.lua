#!lua flags=no-cluster
-- call: keys=1 (KEYS[1])
-- no-cluster: a cluster refuses the script whatever its keys.
return redis.call('SET', KEYS[1], 'v')
