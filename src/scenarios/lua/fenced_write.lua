-- fenced write: accept only a token >= the highest token this resource has seen
local stored = redis.call("GET", KEYS[1])
local max_seen = 0
if stored then
  max_seen = tonumber(stored)
end
local token = tonumber(ARGV[1])
if not token then
  return redis.error_reply("ERR fencing token is not a number")
end
if token < max_seen then
  return redis.error_reply("FENCED token " .. ARGV[1] .. " < max seen " .. stored)
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return token
