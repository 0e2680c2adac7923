#!lua name=corpus_keys_other_function
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), decided, FCALL keys_untouched
-- One function gives its `keys` another table; FCALL gives each call its own, so the other
-- function's `keys[1]` is still the key declared.
redis.register_function('keys_replaced', function(keys, args)
  keys = { args[1] } -- changes this call's table only
  return redis.call('SET', keys[1], 'v')
end)
redis.register_function('keys_untouched', function(keys, args)
  return redis.call('SET', keys[1], 'v')
end)
