#!lua name=corpus_set_repl
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL repl_flags
-- A function passing replication flags past REPL_ALL: refused when it runs, not at load.
redis.register_function('repl_flags', function(keys, args)
  redis.set_repl(8)
  return redis.call('SET', keys[1], 'v')
end)
