-- The README's quick start: saving in applicationDidEnterBackground: happens before the app is suspended.
local dev = lifesim.device{ ios = 12 }
local notes = dev:install{ bundle = "com.example.notes" }

local saved_at
notes:on("applicationDidEnterBackground:", function(ctx)
  ctx:work(0.3)                -- the save takes 0.3 virtual seconds
  saved_at = ctx.now
end)

dev:launch(notes)
dev:advance(10)
local m = dev:mark()
dev:home()

lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
  "applicationWillResignActive:", "applicationDidEnterBackground:",
})
assert(notes.state == "suspended", "suspended right after the snapshot")
assert(saved_at == 10.3)
