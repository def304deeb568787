-- wrk script: rotates through a list of request paths (one per line in PATHS_FILE), each thread
-- from a different offset, and records nothing else (wrk --latency prints the distribution).
local paths = {}
for line in io.lines(os.getenv("PATHS_FILE")) do paths[#paths + 1] = line end
local i = 0
function setup(thread) thread:set("offset", i * 37); i = i + 1 end
local n = 0
function init() n = offset or 0 end
function request()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1])
end
