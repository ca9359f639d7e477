-- View controllers and the app lifecycle (reference §0, §2.9, §3.7, §5.5):
-- UIApplicationExitsOnSuspend, memory warnings, view unloading on iOS ≤ 5,
-- and handlers with ctx.vc.
local h = require "helpers"

local function vc_calls(dev, m)
  local out = {}
  for _, r in ipairs(dev.trace:records{ since = m }) do
    if r.kind == "callback" then
      out[#out + 1] = (r.vc and (r.vc .. " ") or "") .. r.callback
    elseif r.kind == "notification" then
      out[#out + 1] = r.callback
    end
  end
  return out
end

lifesim.test("UIApplicationExitsOnSuspend: the visible view controller disappears on Home (§3.7)", function()
  local dev = lifesim.device{ ios = 6 }
  local app = dev:install{ bundle = "com.example.old", exits_on_suspend = true, root = { class = "Root" } }
  dev:launch(app)
  app:push{ class = "Detail" }
  local m = dev:mark()
  dev:home()
  local got = {}
  for _, s in ipairs(vc_calls(dev, m)) do
    if not s:find("Notification", 1, true) then got[#got + 1] = s end
  end
  lifesim.expect_callbacks(got, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
    "Detail viewWillDisappear:",
    "Detail viewDidDisappear:",
    "applicationWillTerminate:",
  })
  -- From iOS 13 the key is ignored, and so is the view controller.
  dev = lifesim.device{ ios = 13 }
  app = dev:install{ bundle = "com.example.old", exits_on_suspend = true, root = { class = "Root" } }
  dev:launch(app)
  m = dev:mark()
  dev:home()
  assert(#dev.trace:callbacks{ vc = "Root", since = m } == 0)
end)

lifesim.test("a memory warning reaches the visible view controllers after the app, parent first (§2.9)", function()
  local dev, app = h.with_root(17)
  app:push{ class = "Detail" }
  app:present({ class = "Sheet" }, { style = "pageSheet" })
  local m = dev:mark()
  dev:memory_warning()
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "applicationDidReceiveMemoryWarning:",
    "UIApplicationDidReceiveMemoryWarningNotification",
    "Detail didReceiveMemoryWarning",
    "Sheet didReceiveMemoryWarning",
  })
end)

lifesim.test("iOS 5: off-screen view controllers unload their views, and load them again", function()
  local dev, app = h.with_root(5)
  app:push{ class = "Detail" }
  local root = app.stack[1]
  local m = dev:mark()
  dev:memory_warning()
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "applicationDidReceiveMemoryWarning:",
    "UIApplicationDidReceiveMemoryWarningNotification",
    "Root didReceiveMemoryWarning",
    "Root viewWillUnload",
    "Root viewDidUnload",
    "Detail didReceiveMemoryWarning",
  })
  assert(not root.view_loaded)
  m = dev:mark()
  app:pop()
  local back = dev.trace:callbacks{ vc = "Root", since = m }
  lifesim.expect_callbacks({ back[1], back[2], back[3] }, { "loadView", "viewDidLoad", "viewWillAppear:" })
  -- iOS 4 has viewDidUnload but no viewWillUnload; iOS 6 unloads nothing.
  for ios, expected in pairs{ [4] = "Root didReceiveMemoryWarning,Root viewDidUnload", [6] = "" } do
    dev, app = h.with_root(ios)
    app:push{ class = "Detail" }
    m = dev:mark()
    dev:memory_warning()
    assert(table.concat(dev.trace:callbacks{ vc = "Root", since = m }, ",") == expected:gsub("Root ", ""), ios)
  end
end)

lifesim.test("handlers: the spec's on table, app:on, ctx.vc, and ctx:work", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
  local seen = {}
  app:on("viewDidAppear:", function(ctx)
    seen[#seen + 1] = "app " .. ctx.vc.class .. " " .. ctx.callback
  end)
  dev:launch(app)
  local detail = app:push{ class = "Detail", on = {
    viewDidLoad = function(ctx)
      seen[#seen + 1] = "own " .. ctx.vc.class .. " " .. ctx.vc.state
      ctx:work(0.25)
    end,
  } }
  assert(table.concat(seen, "; ") == "app Root viewDidAppear:; own Detail disappeared; app Detail viewDidAppear:",
         table.concat(seen, "; "))
  assert(dev.now == 0.25, "the work took virtual time")
  local handled = {}
  for _, r in ipairs(dev.trace:records{ vc = "Detail", kind = "callback" }) do
    handled[#handled + 1] = r.callback .. "=" .. tostring(r.handled)
  end
  assert(handled[3] == "viewDidLoad=true" and handled[4] == "viewWillAppear:=false", table.concat(handled, " "))
  assert(tostring(detail) == "<vc Detail #1: appeared>", tostring(detail))
end)

lifesim.test("an error in a view-controller handler names the class, the callback and the time", function()
  local dev, app = h.with_root(17)
  dev:advance(3)
  local ok, err = pcall(app.push, app, { class = "Detail", on = { viewDidLoad = function() error("boom") end } })
  assert(not ok and err.app == "com.example.notes" and err.callback == "-[Detail viewDidLoad]" and err.t == 3,
         tostring(err.callback))
  assert(tostring(err):find("boom", 1, true))
end)
