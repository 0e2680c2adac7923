#!lua name=corpus_pcall_protected
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL pcall_protected
-- In a function, `redis.pcall` and `pcall(redis.call, ...)` of an ARGV key, each a
-- statement: a refusal is handed to the function, which drops it and goes on.
redis.register_function('pcall_protected', function(keys, args)
  redis.pcall('SET', args[1], 'v')
  pcall(redis.call, 'SET', args[1], 'w')
  return redis.call('SET', keys[1], 'v')
end)
