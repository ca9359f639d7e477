-- viewIsAppearing: on nested view controllers: on iOS 15 a child does not get it, only its container (an iOS bug apps work around by forwarding it); from iOS 16 the child gets it too.
local function is_appearing(dev, class, since)
  local n = 0
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = since }) do
    if r.vc == class and r.callback == "viewIsAppearing:" then n = n + 1 end
  end
  return n
end

-- A container on screen with a child; a push and a pop make both appear again.
local function run(ios, forward)
  local dev = lifesim.device{ ios = ios }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  app:on("viewIsAppearing:", function(ctx)
    -- The workaround: the container forwards it to its children on iOS 15.
    if forward and ctx.vc == app.stack[1] then dev:log("Root forwards viewIsAppearing: to Child") end
  end)
  dev:launch(app)
  app.top:add_child{ class = "Child" }
  app:push{ class = "Detail" }
  local m = dev:mark()
  app:pop()
  return dev, m
end

lifesim.test("iOS 15: the container gets viewIsAppearing:, its child does not", function()
  local dev, m = run(15, true)
  assert(is_appearing(dev, "Root", m) == 1)
  assert(is_appearing(dev, "Child", 1) == 0, "not when added, not when revealed")
  assert(dev.profile.view_is_appearing_reaches_children == false)
  assert(#dev.trace:records{ kind = "log", since = m } == 1, "the app's own forwarding ran")
end)

for _, ios in ipairs({ 16, 17, 18 }) do
  lifesim.test("iOS " .. ios .. ": the child gets it too, when added and when revealed", function()
    local dev, m = run(ios, false)
    assert(is_appearing(dev, "Root", m) == 1)
    assert(is_appearing(dev, "Child", m) == 1)
    assert(is_appearing(dev, "Child", 1) == 2)
    assert(dev.profile.view_is_appearing_reaches_children == true)
  end)
end
