-- fenced write: accept only a token >= the highest token this resource has seen
local stored = redis.call("GET", KEYS[1]) or "0"
local max_seen = tonumber(stored)
local token = tonumber(ARGV[1])
if not token or not max_seen then
  return redis.error_reply("ERR fencing tokens must be numbers")
end
if token < max_seen then
  return redis.error_reply("FENCED token " .. ARGV[1] .. " < max seen " .. stored)
end
redis.call("SET", KEYS[1], ARGV[1])
redis.call("SET", KEYS[2], ARGV[2])
return token
