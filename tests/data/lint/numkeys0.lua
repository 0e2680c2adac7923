-- call: keys=0 (ARGV[1], ARGV[2] are the keys; sent to the first primary)
-- numkeys 0: the script runs wherever it is sent.
redis.call('SET', ARGV[1], 'v')
return redis.call('SET', ARGV[2], 'v')
