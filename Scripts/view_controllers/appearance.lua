-- Appearance and layout (reference §0 "View controllers", §5.3): viewIsAppearing:
-- per profile and handler, the layout passes, and rotation.

local function pushed_calls(ios, spec, policy)
  local dev = lifesim.device{ ios = ios }
  if policy then dev:policy(policy) end
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  dev:launch(app)
  local m = dev:mark()
  app:push(spec)
  return dev.trace:callbacks{ vc = spec.class, since = m }, dev, app
end

local function has(list, selector)
  for _, s in ipairs(list) do if s == selector then return true end end
  return false
end

lifesim.test("viewIsAppearing: never before 13; on 13-16 only when implemented; always from 17", function()
  local implemented = { class = "B", on = { ["viewIsAppearing:"] = function() end } }
  local plain = { class = "B" }
  local cases = {
    { 12, implemented, false }, { 13, plain, false }, { 13, implemented, true },
    { 16, plain, false }, { 16, implemented, true }, { 17, plain, true }, { 26, plain, true },
  }
  for _, c in ipairs(cases) do
    local calls = pushed_calls(c[1], c[2])
    local label = "iOS " .. c[1] .. (c[2].on and " with a handler" or "")
    assert(has(calls, "viewIsAppearing:") == c[3], label .. ": " .. table.concat(calls, " "))
  end
  -- app:on counts as an implementation too; on("*") only observes.
  local dev = lifesim.device{ ios = 15 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  app:on("*", function() end)
  dev:launch(app)
  assert(not has(dev.trace:callbacks{ vc = "Root" }, "viewIsAppearing:"), "a wildcard is not an implementation")
  app:on("viewIsAppearing:", function() end)
  app:push{ class = "B" }
  assert(has(dev.trace:callbacks{ vc = "B" }, "viewIsAppearing:"))
end)

lifesim.test("viewIsAppearing: sits between viewWillAppear: and the layout pass (§5.3)", function()
  local calls = pushed_calls(17, { class = "B" })
  lifesim.expect_callbacks(calls, {
    "initWithNibName:bundle:", "loadView", "viewDidLoad",
    "viewWillAppear:", "viewIsAppearing:",
    "viewWillLayoutSubviews", "viewDidLayoutSubviews",
    "viewWillLayoutSubviews", "viewDidLayoutSubviews",
    "viewDidAppear:",
  })
end)

local function count(list, selector)
  local n = 0
  for _, s in ipairs(list) do if s == selector then n = n + 1 end end
  return n
end

-- Reference §5.4 (pop row): published pop logs (iOS 12 and 13, apps
-- that log the layout pair at launch) show viewWillAppear: then viewDidAppear:
-- on the revealed view controller with no layout pass between.
lifesim.test("the layout pass: twice on the first appearance, none when a pop reveals it, configurable", function()
  local calls, dev, app = pushed_calls(17, { class = "B" })
  assert(count(calls, "viewDidLayoutSubviews") == 2)
  app:push{ class = "C" }
  local m = dev:mark()
  app:pop()
  assert(count(dev.trace:callbacks{ vc = "B", since = m }, "viewDidLayoutSubviews") == 0, "a revealed view controller")
  calls = pushed_calls(17, { class = "B" }, { layout_passes = { first = 3, revealed = 1 } })
  assert(count(calls, "viewDidLayoutSubviews") == 3)
  local policy = dev:policy()
  assert(policy.layout_passes.first == 2 and policy.layout_passes.revealed == 0)
  assert(policy.layout_passes.later == 0, "later is the old name of revealed")
  assert(dev.profile.layout_passes_first == 2 and dev.profile.layout_passes_revealed == 0)
  local ok, err = pcall(dev.policy, dev, { layout_passes = { first = 0 } })
  assert(not ok and err:find("layout_passes.first", 1, true), err)
  -- The old name still works: one pass on every revealed view controller.
  local _, dev2, app2 = pushed_calls(17, { class = "B" }, { layout_passes = { later = 1 } })
  app2:push{ class = "C" }
  m = dev2:mark()
  app2:pop()
  assert(count(dev2.trace:callbacks{ vc = "B", since = m }, "viewDidLayoutSubviews") == 1)
end)

lifesim.test("rotation: a layout pass with no appearance callbacks", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  dev:launch(app)
  local sheet = app:present{ class = "Sheet" }
  local m = dev:mark()
  dev:rotate()
  local got = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = m }) do got[#got + 1] = r.vc .. " " .. r.callback end
  lifesim.expect_callbacks(got, {
    "Root viewWillTransitionToSize:withTransitionCoordinator:",
    "Sheet viewWillTransitionToSize:withTransitionCoordinator:",
    "Root viewWillLayoutSubviews", "Root viewDidLayoutSubviews",
    "Sheet viewWillLayoutSubviews", "Sheet viewDidLayoutSubviews",
  })
  assert(sheet.state == "appeared")
  -- Before iOS 8 there is no viewWillTransitionToSize:, only the layout.
  dev = lifesim.device{ ios = 7 }
  app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  dev:launch(app)
  m = dev:mark()
  dev:rotate()
  lifesim.expect_callbacks(dev.trace:callbacks{ since = m }, { "viewWillLayoutSubviews", "viewDidLayoutSubviews" })
end)

lifesim.test("rotation: a view controller pushed when the size changes is the one laid out", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  app:on("viewWillTransitionToSize:withTransitionCoordinator:", function(ctx)
    if ctx.vc.class == "Root" then ctx.app:push{ class = "Detail" } end
  end)
  dev:launch(app)
  local m = dev:mark()
  dev:rotate()
  -- Root left the screen in the first pass: the layout pass is Detail's.
  local laid = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = m }) do
    if r.callback == "viewDidLayoutSubviews" then laid[#laid + 1] = r.vc end
  end
  lifesim.expect_eq(laid[#laid], "Detail")
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = m }) do
    if r.vc == "Root" and r.callback == "viewDidLayoutSubviews" then
      error("Root laid out after it disappeared")
    end
  end
end)
