-- wrk script: every request is a new vote, with its own pseudo and its own voter address
-- (X-Forwarded-For, read by the site with http.trust_proxy = true), so none is refused. Optional
-- argument: where the count starts (two wrk processes voting at once each take their own range).
counter = 0

init = function(args)
  counter = tonumber(args[1] or "0")
end

request = function()
  counter = counter + 1
  local ip = string.format("10.%d.%d.%d", math.floor(counter / 65536) % 256, math.floor(counter / 256) % 256, counter % 256)
  local body = '{"pseudo":"v' .. (counter + 100) .. '"}'
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json", ["Accept"] = "application/json", ["X-Forwarded-For"] = ip }, body)
end
