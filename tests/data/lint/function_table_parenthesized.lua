#!lua name=corpus_table_parenthesized
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL paren
-- The table form in parentheses, as slotgen's own `emit redis-function` and the Redis docs
-- write it: one call to the server, as `register_function{...}` is.
redis.register_function({
  function_name = 'paren',
  callback = function(keys, args)
    redis.call('SET', keys[1], 'v')
    return redis.call('SET', args[1], 'v')
  end,
  flags = { 'allow-oom' },
})
