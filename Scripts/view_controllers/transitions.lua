-- The interleavings of reference §5.4 (A = the view controller on screen, B = the
-- one that comes or goes): push, pop, the interactive pop, and modal
-- presentation in each style. The device runs iOS 12 (no viewIsAppearing:)
-- unless a test says otherwise.

local h = require "helpers"

local function app_on(ios) return h.with_root(ios or 12, "A") end
local vc_calls = h.object_calls

local b_made = { "B initWithNibName:bundle:", "B loadView", "B viewDidLoad" }
local function with(list, more)
  local out = {}
  for _, x in ipairs(list) do out[#out + 1] = x end
  for _, x in ipairs(more) do out[#out + 1] = x end
  return out
end

lifesim.test("push B over A", function()
  local dev, app = app_on()
  local m = dev:mark()
  local b = app:push{ class = "B" }
  lifesim.expect_callbacks(vc_calls(dev, m), with(b_made, {
    "A viewWillDisappear:",
    "B viewWillAppear:",
    "B viewWillLayoutSubviews", "B viewDidLayoutSubviews",
    "B viewWillLayoutSubviews", "B viewDidLayoutSubviews",
    "A viewDidDisappear:",
    "B viewDidAppear:",
  }))
  assert(app.top == b and b.state == "appeared" and app.stack[1].state == "disappeared")
end)

-- §5.4 pop row; the published pop logs (iOS 12, 13): no layout pass
-- on the revealed view controller.
lifesim.test("pop B: A reappears with no layout pass, then B is deallocated", function()
  local dev, app = app_on()
  app:push{ class = "B" }
  local m = dev:mark()
  app:pop()
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "B viewWillDisappear:",
    "A viewWillAppear:",
    "B viewDidDisappear:",
    "A viewDidAppear:",
    "B dealloc",
  })
end)

lifesim.test("interactive pop, cancelled: A gets no viewDidAppear:, B stays", function()
  local dev, app = app_on()
  local b = app:push{ class = "B" }
  local m = dev:mark()
  app:pop_gesture{ cancel = true }
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "B viewWillDisappear:",
    "A viewWillAppear:",
    "A viewWillDisappear:",
    "A viewDidDisappear:",
    "B viewWillAppear:",
    "B viewDidAppear:",
  })
  assert(app.top == b and b.state == "appeared")
end)

lifesim.test("interactive pop, completed: the same as pop", function()
  local dev, app = app_on()
  app:push{ class = "B" }
  local m = dev:mark()
  app:pop_gesture{ cancel = false }
  local got = vc_calls(dev, m)
  assert(got[1] == "B viewWillDisappear:" and got[#got] == "B dealloc" and #app.stack == 1, table.concat(got, ", "))
end)

lifesim.test("present .fullScreen: B appears before A disappears", function()
  local dev, app = app_on()
  local m = dev:mark()
  local b = app:present({ class = "B" }, { style = "fullScreen" })
  lifesim.expect_callbacks(vc_calls(dev, m), with(b_made, {
    "A viewWillDisappear:",
    "B viewWillAppear:",
    "B viewWillLayoutSubviews", "B viewDidLayoutSubviews",
    "B viewWillLayoutSubviews", "B viewDidLayoutSubviews",
    "B viewDidAppear:",
    "A viewDidDisappear:",
  }))
  assert(app.top == b and app.presented[1] == b and b.presentation == "fullScreen")
  m = dev:mark()
  app:dismiss()
  -- The presenter is revealed as on a pop: no layout pass (§5.4).
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "B viewWillDisappear:",
    "A viewWillAppear:",
    "A viewDidAppear:",
    "B viewDidDisappear:",
    "B dealloc",
  })
end)

lifesim.test("sheets and overFullScreen: the presenter gets no appearance callbacks", function()
  for _, style in ipairs{ "pageSheet", "formSheet", "overFullScreen" } do
    local dev, app = app_on()
    local m = dev:mark()
    app:present({ class = "B" }, { style = style })
    app:dismiss()
    for _, call in ipairs(vc_calls(dev, m)) do
      assert(call:sub(1, 2) ~= "A ", style .. ": " .. call)
    end
    lifesim.expect_callbacks(dev.trace:callbacks{ vc = "B", since = m }, {
      "initWithNibName:bundle:", "loadView", "viewDidLoad",
      "viewWillAppear:",
      "viewWillLayoutSubviews", "viewDidLayoutSubviews",
      "viewWillLayoutSubviews", "viewDidLayoutSubviews",
      "viewDidAppear:",
      "viewWillDisappear:", "viewDidDisappear:", "dealloc",
    })
  end
end)

lifesim.test("the default style: .fullScreen before iOS 13, .pageSheet from 13 (§0)", function()
  for ios, expected in pairs{ [12] = "fullScreen", [13] = "pageSheet", [17] = "pageSheet" } do
    local dev, app = app_on(ios)
    assert(dev.profile.default_modal_style == expected)
    local b = app:present{ class = "B" }
    assert(b.presentation == expected, ios .. ": " .. b.presentation)
    local a_calls = dev.trace:callbacks{ vc = "A", since = 1 }
    local disappeared = a_calls[#a_calls] == "viewDidDisappear:"
    assert(disappeared == (expected == "fullScreen"), ios .. ": A " .. a_calls[#a_calls])
  end
end)

lifesim.test("a sheet's interactive dismissal, cancelled, then completed", function()
  local dev, app = app_on(17)
  local b = app:present{ class = "B" }
  local m = dev:mark()
  app:dismiss_gesture{ cancel = true }
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "B viewWillDisappear:",
    "B viewWillAppear:",
    "B viewIsAppearing:",
    "B viewDidAppear:",
  })
  assert(app.top == b and b.state == "appeared")
  m = dev:mark()
  app:dismiss_gesture{}
  lifesim.expect_callbacks(vc_calls(dev, m), { "B viewWillDisappear:", "B viewDidDisappear:", "B dealloc" })
end)

lifesim.test("presenting over a presented view controller, then dismissing both", function()
  local dev, app = app_on(17)
  local b = app:present{ class = "B" }
  local c = app:present({ class = "C" }, { style = "fullScreen" })
  assert(#app.presented == 2 and app.top == c and b.state == "disappeared")
  app:dismiss()
  assert(app.top == b and b.state == "appeared" and c.state == "deallocated")
  app:dismiss()
  assert(app.top == app.stack[1] and #app.presented == 0)
end)

lifesim.test("misuse is refused with a reason", function()
  local dev, app = app_on(17)
  local function refused(fn, text)
    local ok, err = pcall(fn)
    assert(not ok and err:find(text, 1, true), tostring(err))
  end
  refused(function() app:pop() end, "holds only its root")
  refused(function() app:dismiss() end, "no view controller presented")
  refused(function() app:present({ class = "B" }, { style = "sideways" }) end, "unknown style 'sideways'")
  refused(function() app:push{ class = "B", from = "nib" } end, "field 'from' must be")
  refused(function() app:push{ class = "B", on = { viewDidLod = function() end } } end, "did you mean 'viewDidLoad'")
  app:present({ class = "B" }, { style = "fullScreen" })
  refused(function() app:dismiss_gesture{} end, "only a .pageSheet or .formSheet")
  refused(function() app:push{ class = "C" } end, "dismiss it first")
  dev:home()
  refused(function() app:dismiss() end, "is suspended, so none of its code runs")
end)

lifesim.test("a transition started inside another is refused", function()
  local dev, app = app_on(17)
  local err
  app:push{ class = "B", on = { ["viewWillAppear:"] = function(ctx)
    local ok, e = pcall(app.push, app, { class = "C" })
    err = e
  end } }
  assert(err and err:find("Unbalanced calls", 1, true), tostring(err))
  -- From a later callback it works: viewDidAppear: pushes the next screen.
  app:push{ class = "D", on = { ["viewDidAppear:"] = function(ctx)
    if ctx.vc.instance == 1 and ctx.app.top == ctx.vc then ctx.app:push{ class = "E" } end
  end } }
  assert(app.top.class == "E" and #app.stack == 4)
end)
