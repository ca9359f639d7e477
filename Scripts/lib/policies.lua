-- Victim policies for dev:policy{ choose_victim = … }, shared by the policy tests and the experiments.
local M = {}

-- Strict least-recently-used: the candidate used longest ago, whatever its
-- jetsam band; ties keep the default order (the first such candidate wins).
function M.strict_lru(dev, candidates)
  local victim = candidates[1]
  for _, c in ipairs(candidates) do
    if c.last_used < victim.last_used then victim = c end
  end
  return victim
end

return M
