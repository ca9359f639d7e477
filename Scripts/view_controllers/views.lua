-- Views (reference §6): creation from code or a xib, the superview and window
-- moves, layoutSubviews on the next layout pass, drawRect: on the next display,
-- removal, and views that move with their view controller.

local h = require "helpers"

local function on_screen(ios) return h.with_root(ios or 17) end
local calls = h.object_calls

lifesim.test("add_view from code to a view controller on screen", function()
  local dev, app = on_screen()
  local m = dev:mark()
  local badge = app.top:add_view{ class = "BadgeView", from = "code" }
  lifesim.expect_callbacks(calls(dev, m), {
    "BadgeView initWithFrame:",
    "BadgeView willMoveToSuperview:",
    "BadgeView didMoveToSuperview",
    "BadgeView willMoveToWindow:",
    "BadgeView didMoveToWindow",
    -- the next layout pass: the superview's view controller, then the view
    "Root viewWillLayoutSubviews",
    "Root viewDidLayoutSubviews",
    "BadgeView layoutSubviews",
    -- the next display
    "BadgeView drawRect:",
  })
  assert(badge.in_window and badge.vc == app.top and app.top.views[1] == badge)
end)

lifesim.test("add_view from a xib: initWithCoder: then awakeFromNib", function()
  local dev, app = on_screen()
  local m = dev:mark()
  app.top:add_view{ class = "CardView", from = "xib" }
  local got = calls(dev, m)
  lifesim.expect_callbacks({ got[1], got[2], got[3] }, {
    "CardView initWithCoder:", "CardView awakeFromNib", "CardView willMoveToSuperview:",
  })
end)

lifesim.test("remove: superview, window, then dealloc, for the view and its subviews", function()
  local dev, app = on_screen()
  local card = app.top:add_view{ class = "CardView" }
  local label = card:add_view{ class = "LabelView" }
  assert(label.superview == card and label.in_window)
  local m = dev:mark()
  card:remove()
  lifesim.expect_callbacks(calls(dev, m), {
    "CardView willMoveToSuperview:",
    "CardView willMoveToWindow:",
    "LabelView willMoveToWindow:",
    "CardView didMoveToWindow",
    "LabelView didMoveToWindow",
    "CardView didMoveToSuperview",
    "CardView dealloc",
    "LabelView dealloc",
  })
  assert(card.removed and label.removed and #app.top.views == 0)
  local ok, err = pcall(card.remove, card)
  assert(not ok and err:find("already removed", 1, true), err)
end)

lifesim.test("views added in viewDidLoad move to the window as their view controller appears", function()
  local dev, app = on_screen(12)
  local m = dev:mark()
  app:push{ class = "Detail", on = { viewDidLoad = function(ctx) ctx.vc:add_view{ class = "BadgeView" } end } }
  lifesim.expect_callbacks(calls(dev, m), {
    "Detail initWithNibName:bundle:",
    "Detail loadView",
    "Detail viewDidLoad",
    "BadgeView initWithFrame:",
    "BadgeView willMoveToSuperview:",
    "BadgeView didMoveToSuperview",
    "Root viewWillDisappear:",
    "Detail viewWillAppear:",
    "BadgeView willMoveToWindow:",
    "BadgeView didMoveToWindow",
    "Detail viewWillLayoutSubviews",
    "Detail viewDidLayoutSubviews",
    "BadgeView layoutSubviews",
    "Detail viewWillLayoutSubviews",
    "Detail viewDidLayoutSubviews",
    "BadgeView drawRect:",
    "Root viewDidDisappear:",
    "Detail viewDidAppear:",
  })
  -- Popping takes it out of the window before viewDidDisappear:, then deallocates it.
  m = dev:mark()
  app:pop()
  local got = calls(dev, m)
  local text = table.concat(got, ", ")
  assert(text:find("BadgeView willMoveToWindow:, BadgeView didMoveToWindow, Detail viewDidDisappear:", 1, true), text)
  assert(got[#got] == "BadgeView dealloc" and got[#got - 1] == "Detail dealloc", text)
end)

lifesim.test("adding to a view controller whose view is not loaded loads it first (§5.2)", function()
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.notes", background_modes = { "fetch" },
                           root = { class = "Root", from = "storyboard" } }
  dev:background_fetch(app)
  local root = app.stack[1]
  assert(not root.view_loaded and not root.in_window)
  local m = dev:mark()
  local v = root:add_view{ class = "BadgeView" }
  local got = calls(dev, m)
  assert(got[1] == "Root loadView" and got[2] == "Root viewDidLoad", table.concat(got, ", "))
  assert(not v.in_window and got[#got] == "BadgeView didMoveToSuperview", "no window yet")
end)

lifesim.test("a view handler gets ctx.view and ctx.vc; two views of a class are told apart", function()
  local dev, app = on_screen()
  local seen = {}
  local spec = { class = "BadgeView", on = { drawRect = nil, ["drawRect:"] = function(ctx)
    seen[#seen + 1] = ctx.view.class .. "#" .. ctx.view.instance .. " in " .. ctx.vc.class
  end } }
  app.top:add_view(spec)
  app.top:add_view(spec)
  assert(table.concat(seen, "; ") == "BadgeView#1 in Root; BadgeView#2 in Root", table.concat(seen, "; "))
  local jsonl = dev.trace:text{ format = "jsonl" }
  assert(jsonl:find('"view":"BadgeView","instance":2', 1, true), "the JSONL instance field")
  assert(dev.trace:text():find("-[BadgeView drawRect:] #2", 1, true), "the text suffix")
  local ok, err = pcall(app.top.add_view, app.top, { class = "V", on = { viewDidLoad = function() end } })
  assert(not ok and err:find("not a view callback", 1, true), err)
end)
