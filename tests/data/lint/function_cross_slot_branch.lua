#!lua name=corpus_audit_branch
-- call: keys=1 (KEYS[1]; ARGV[1] is the second key), FCALL audit_branch
-- An audit write on another slot when the caller asks (`args[1] == 'audit'`; here args[1]
-- is a key's name, so the branch does not run and every server runs the function).
redis.register_function('audit_branch', function(keys, args)
  if args[1] == 'audit' then
    redis.call('SET', '{audit}' .. keys[1], 1)
  end
  return redis.call('GET', keys[1])
end)
