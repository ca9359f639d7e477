-- Modern iOS, for `lifesim compare --handled --ios 12 --ios 15 --ios 17 --ios 18`: a prewarm, then the tap,
-- then a container with a child appearing again after a pop. iOS 12 does not prewarm; on 15 the launch
-- methods run at the prewarm and see ActivePrewarm; from 16 they run there without it; on 15 the child
-- misses viewIsAppearing:, which 17 and 18 deliver.
local dev = lifesim.device{}   -- no ios: `lifesim compare --ios …` (or --ios) chooses it
local app = dev:install{ bundle = "com.example.notes", scenes = false, root = { class = "Root" } }

local function note(ctx)
  dev:log(ctx.callback .. " ActivePrewarm=" .. tostring(ctx.environment.ActivePrewarm)
    .. " protected=" .. tostring(ctx.protected_data_available))
  return true
end
app:on("application:willFinishLaunchingWithOptions:", note)
app:on("application:didFinishLaunchingWithOptions:", note)
for _, selector in ipairs({
  "applicationWillEnterForeground:", "applicationDidBecomeActive:", "applicationWillResignActive:",
  "applicationDidEnterBackground:", "viewIsAppearing:",
}) do
  app:on(selector, function() end)
end

dev:prewarm(app)    -- the system starts the process ahead of the tap
dev:advance(3600)
dev:launch(app)     -- the user's tap
app.top:add_child{ class = "Child" }
app:push{ class = "Detail" }
app:pop()           -- the container appears again, with its child
