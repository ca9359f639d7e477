-- Seed 003 (§二): three view controllers pushed and popped on a navigation stack,
-- one from a storyboard, one from a xib, one in code. lifesim reproduces the
-- three printed traces exactly. The seed predates viewIsAppearing:, so the
-- device runs iOS 12.

local function navigation_app()
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.sgh", root = { class = "SGHRootViewController", from = "storyboard" } }
  dev:launch(app)
  return dev, app
end

-- Push a view controller of `class` made `from`, pop it, and return the
-- callbacks of that class for the push and for the pop.
local function push_then_pop(from, class)
  local dev, app = navigation_app()
  local m = dev:mark()
  local pushed = app:push{ class = class, from = from }
  assert(app.top == pushed and #app.stack == 2, "the pushed view controller is on top")
  local push = dev.trace:callbacks{ vc = class, since = m }
  m = dev:mark()
  app:pop()
  assert(pushed.state == "deallocated" and #app.stack == 1, "popped and deallocated")
  return push, dev.trace:callbacks{ vc = class, since = m }
end

-- The seed's three push traces differ only in how the view controller is made (§5.1).
local seed_cases = {
  { "(1) storyboard", "storyboard", "SGHPushViewController", { "initWithCoder:", "awakeFromNib" } },
  { "(2) xib", "xib", "SGHPushTwoViewController", { "initWithNibName:bundle:" } },
  { "(3) code", "code", "SGHPushCodeViewController", { "initWithNibName:bundle:" } },
}

for _, case in ipairs(seed_cases) do
  local label, from, class, made = case[1], case[2], case[3], case[4]
  lifesim.test("seed 003 " .. label .. ": push then pop", function()
    local push, pop = push_then_pop(from, class)
    local expected = {}
    for _, selector in ipairs(made) do expected[#expected + 1] = selector end
    for _, selector in ipairs{
      "loadView",
      "viewDidLoad",
      "viewWillAppear:",
      "viewWillLayoutSubviews",
      "viewDidLayoutSubviews",
      "viewWillLayoutSubviews",
      "viewDidLayoutSubviews",
      "viewDidAppear:",
    } do expected[#expected + 1] = selector end
    lifesim.expect_callbacks(push, expected)
    lifesim.expect_callbacks(pop, { "viewWillDisappear:", "viewDidDisappear:", "dealloc" })
  end)
end

lifesim.test("seed 003: xib and code differ only in the nib name they pass", function()
  local dev, app = navigation_app()
  local m = dev:mark()
  app:push{ class = "FromXib", from = "xib" }
  app:push{ class = "InCode", from = "code" }
  local details = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = m }) do
    if r.callback == "initWithNibName:bundle:" then details[#details + 1] = r.vc .. " " .. r.detail end
  end
  assert(details[1] == "FromXib nibName=FromXib" and details[2] == "InCode nibName=nil", table.concat(details, "; "))
end)

lifesim.test("seed 003 finding: a xib view controller that overrides loadView gets an empty view", function()
  local dev, app = navigation_app()
  local m = dev:mark()
  local vc = app:push{ class = "BrokenXibViewController", from = "xib", overrides_load_view = true }
  local warnings = dev.trace:records{ kind = "warning", since = m }
  assert(#warnings == 1, "one warning")
  assert(warnings[1].vc == "BrokenXibViewController", "the warning names the class")
  assert(warnings[1].detail:find("overrides loadView", 1, true) and warnings[1].detail:find("empty", 1, true),
         warnings[1].detail)
  assert(vc.empty_view, "vc.empty_view")
  -- The same override in code is how a view is meant to be made: no warning.
  m = dev:mark()
  local coded = app:push{ class = "CodeViewController", from = "code", overrides_load_view = true }
  assert(#dev.trace:records{ kind = "warning", since = m } == 0 and not coded.empty_view)
end)
