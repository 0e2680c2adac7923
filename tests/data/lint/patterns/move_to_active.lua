-- a bullmq-like moveToActive: pop the next job, stamp it, lock it, return its data
local function rcall(...)
  return redis.call(...)
end
local jobId = rcall('RPOPLPUSH', KEYS[1], KEYS[2])
if jobId then
  local jobKey = ARGV[1] .. jobId
  rcall('HSET', jobKey, 'processedOn', ARGV[2])
  rcall('SET', jobKey .. ':lock', ARGV[3], 'PX', ARGV[4])
  rcall('XADD', KEYS[3], '*', 'event', 'active', 'jobId', jobId)
  return {jobId, rcall('HGETALL', jobKey)}
end
return nil
