-- The root view controller (reference §2.1): where it is made, when it appears,
-- and how its appearance interleaves with the app's activation.

local h = require "helpers"

-- "Class selector" for view controllers, the bare selector for delegates.
local function records(dev, since) return h.object_calls(dev, since, true) end

lifesim.test("app-delegate model, storyboard root: made before willFinishLaunching (§2.1 row 0)", function()
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "RootVC", from = "storyboard" } }
  local m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(records(dev, m), {
    "RootVC initWithCoder:",
    "RootVC awakeFromNib",
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "RootVC loadView",
    "RootVC viewDidLoad",
    "RootVC viewWillAppear:",
    "RootVC viewWillLayoutSubviews",
    "RootVC viewDidLayoutSubviews",
    "RootVC viewWillLayoutSubviews",
    "RootVC viewDidLayoutSubviews",
    "applicationDidBecomeActive:",
    "RootVC viewDidAppear:",
  })
  assert(app.top.class == "RootVC" and app.top.state == "appeared" and #app.stack == 1)
end)

lifesim.test("app-delegate model, xib or code root: made in didFinishLaunching (§5.1)", function()
  for _, from in ipairs{ "xib", "code" } do
    local dev = lifesim.device{ ios = 12 }
    local app = dev:install{ bundle = "com.example.notes", root = { class = "RootVC", from = from } }
    local m = dev:mark()
    dev:launch(app)
    local got = records(dev, m)
    lifesim.expect_callbacks({ got[1], got[2], got[3], got[4] }, {
      "application:willFinishLaunchingWithOptions:",
      "application:didFinishLaunchingWithOptions:",
      "RootVC initWithNibName:bundle:",
      "RootVC loadView",
    })
  end
end)

lifesim.test("scene model: the root is made in willConnect and appears before the scene comes forward", function()
  local dev = lifesim.device{ ios = 16 }
  local app = dev:install{ bundle = "com.example.notes", root = { class = "RootVC", from = "storyboard" } }
  local m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(records(dev, m), {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "RootVC initWithCoder:",
    "RootVC awakeFromNib",
    "RootVC loadView",
    "RootVC viewDidLoad",
    "RootVC viewWillAppear:",
    "RootVC viewWillLayoutSubviews",
    "RootVC viewDidLayoutSubviews",
    "RootVC viewWillLayoutSubviews",
    "RootVC viewDidLayoutSubviews",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
    "RootVC viewDidAppear:",
  })
end)

lifesim.test("§8.8 root_appears_before_active: viewDidAppear: before the activation", function()
  for _, ios in ipairs{ 11, 17 } do
    local dev = lifesim.device{ ios = ios, quirks = { "root_appears_before_active" } }  -- quirks need the device
    local app = dev:install{ bundle = "com.example.notes", root = { class = "RootVC" } }
    dev:launch(app)
    local got = dev.trace:callbacks{ app = app }
    local active = ios >= 13 and "sceneDidBecomeActive:" or "applicationDidBecomeActive:"
    assert(got[#got] == active and got[#got - 1] == "viewDidAppear:", ios .. ": " .. table.concat(got, " "))
  end
end)

lifesim.test("no appearance callbacks from Home, lock, return or force-quit (§0)", function()
  for _, ios in ipairs{ 12, 17 } do
    local dev, app = h.with_root(ios, "RootVC")
    local m = dev:mark()
    dev:home(); dev:launch(app); dev:lock(); dev:unlock()
    dev:interrupt("call"); dev:end_interrupt()
    dev:kill(app)
    local vc = dev.trace:callbacks{ vc = "RootVC", since = m }
    assert(#vc == 0, ios .. ": " .. table.concat(vc, " "))
  end
end)

lifesim.test("a relaunch makes a new root; the old one is gone without dealloc (§5.5)", function()
  local dev, app = h.with_root(17, "RootVC")
  local first = app.top
  dev:kill(app)
  assert(first.state == "deallocated" and app.top == nil)
  for _, selector in ipairs(dev.trace:callbacks{ vc = "RootVC" }) do
    assert(selector ~= "dealloc", "no dealloc record at exit")
  end
  dev:launch(app)
  assert(app.top ~= first and app.top.instance == 2, "instance 2")
  local text = dev.trace:text()
  assert(text:find("-[RootVC viewDidLoad] #2", 1, true), "the text trace tells the instances apart")
end)

lifesim.test("a background launch makes the root; it appears when the user opens the app", function()
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.notes", background_modes = { "fetch" },
                           root = { class = "RootVC", from = "storyboard" } }
  dev:background_fetch(app)
  local made = dev.trace:callbacks{ vc = "RootVC" }
  lifesim.expect_callbacks(made, { "initWithCoder:", "awakeFromNib" })
  assert(app.top.state == "disappeared" and not app.top.view_loaded)
  local m = dev:mark()
  dev:launch(app)
  local got = records(dev, m)
  assert(got[1] == "applicationWillEnterForeground:" and got[2] == "RootVC loadView", table.concat(got, " "))
  assert(got[#got] == "RootVC viewDidAppear:" and got[#got - 1] == "applicationDidBecomeActive:")
end)

lifesim.test("each window of a scene app has its own root", function()
  local dev, app = h.with_root(17, "RootVC")
  local first = app.top
  local s2 = app:open_scene()
  assert(app.top ~= first and app.top.instance == 2, "the focus window's root")
  local scenes = {}
  for _, r in ipairs(dev.trace:records{ vc = "RootVC", kind = "callback" }) do
    if r.callback == "viewDidAppear:" then scenes[#scenes + 1] = tostring(r.scene) end
  end
  assert(table.concat(scenes, ",") == "nil,2", table.concat(scenes, ","))
  s2:close()
  assert(app.top == first, "back to the first window's root")
end)

lifesim.test("an app without a root has no view controllers", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.notes" }
  dev:launch(app)
  assert(app.top == nil and #app.stack == 0)
  local ok, err = pcall(app.push, app, { class = "X" })
  assert(not ok and err:find("no root view controller", 1, true), err)
end)
