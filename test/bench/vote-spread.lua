-- wrk script: as vote-post.lua, every request a new vote with its own pseudo and address, but the
-- votes go round the servers given after the first argument (where the count starts): a list's
-- votes are for many servers, whose votes do not wait for each other.
counter = 0
slugs = {}

init = function(args)
  counter = tonumber(args[1])
  for i = 2, #args do slugs[#slugs + 1] = args[i] end
end

request = function()
  counter = counter + 1
  local ip = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
  local body = '{"pseudo":"v' .. (counter + 100) .. '"}'
  local path = "/serveur/" .. slugs[(counter % #slugs) + 1] .. "/voter"
  return wrk.format("POST", path, { ["Content-Type"] = "application/json", ["Accept"] = "application/json", ["X-Forwarded-For"] = ip }, body)
end
