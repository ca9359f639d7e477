-- Attacks the C stack: each coroutine's __close handler closes the previous coroutine, 30,000 deep.
-- expect-error: coroutine_close_nesting.lua:8: C stack overflow
local prev = nil
for i = 1, 30000 do
  local p = prev
  local co = coroutine.create(function()
    local guard <close> = setmetatable({}, { __close = function()
      if p then coroutine.close(p) end
    end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  prev = co
end
coroutine.close(prev)
