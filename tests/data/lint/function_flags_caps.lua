#!lua name=corpus_flags_caps
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL caps_read
-- A function's flag in capitals: FUNCTION LOAD reads a function's flags in any case (the
-- shebang's in lower case only), so the function is `no-writes` and runs.
redis.register_function{function_name='caps_read', callback=function(keys, args)
  return redis.call('GET', keys[1])
end, flags={'NO-WRITES'}}
