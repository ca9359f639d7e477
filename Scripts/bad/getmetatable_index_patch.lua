-- Attacks a lifesim object by patching the __index of the metatable getmetatable returns.
-- expect-error: getmetatable_index_patch.lua:4: attempt to index a boolean value
local dev = lifesim.device{ ios = 17 }
getmetatable(dev).__index = function() return 42 end
print(dev.now)
