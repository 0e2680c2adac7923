#!lua name=corpus_no_writes
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL ro_write
-- A function flagged no-writes that writes: refused wherever the keys are.
redis.register_function{function_name='ro_write', callback=function(keys, args)
  return redis.call('SET', keys[1], 'v')
end, flags={'no-writes'}}
