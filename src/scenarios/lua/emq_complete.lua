-- @complete: finish a job, but only for the worker holding its current grant.
-- KEYS[1] = emq:{q}:active   KEYS[2] = emq:{q}:job:<id>
-- ARGV[1] = job id   ARGV[2] = the att the worker's claim returned
local att = redis.call('HGET', KEYS[2], 'attempts')
if not att then return 0 end
if att ~= ARGV[2] then
  return redis.error_reply('EMQSTALE complete token mismatch')
end
-- A reaped lease leaves attempts as it was until the next claim: the job must still be active.
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  return redis.error_reply('EMQSTALE complete job not active')
end
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'state', 'completed')
return 1
