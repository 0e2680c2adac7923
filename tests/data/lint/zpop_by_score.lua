-- call: keys=1 (KEYS[1]; ARGV[1] is the second key)
-- Sidekiq-style scheduled jobs: pop the first job due (`ZRANGE ... BYSCORE LIMIT`), and
-- push it on its queue, a key the script builds from the job.
redis.call('ZADD', KEYS[1], 0, 'job-1')
local jobs = redis.call('zrange', KEYS[1], '-inf', tostring(1e9), 'byscore', 'limit', 0, 1)
if jobs[1] then
  redis.call('zrem', KEYS[1], jobs[1])
  redis.call('lpush', 'queue:' .. jobs[1], jobs[1])
  return jobs[1]
end
return nil
