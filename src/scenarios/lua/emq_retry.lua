-- @retry: hand a job back to the wait queue, fenced like @complete.
-- KEYS[1] = emq:{q}:active   KEYS[2] = emq:{q}:job:<id>   KEYS[3] = emq:{q}:wait
-- ARGV[1] = job id   ARGV[2] = the att the worker's claim returned   ARGV[3] = now (ms)
local att = redis.call('HGET', KEYS[2], 'attempts')
if not att then return 0 end
if att ~= ARGV[2] then
  return redis.error_reply('EMQSTALE retry token mismatch')
end
-- A reaped lease leaves attempts as it was until the next claim: the job must still be active.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return redis.error_reply('EMQSTALE retry job not active')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[1])
redis.call('HSET', KEYS[2], 'state', 'waiting')
return 1
