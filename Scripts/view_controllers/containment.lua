-- View controller containment: adding and removing a child, and appearance forwarded to children.
--
-- Sources: Apple, UIViewController "Implementing a container view controller" and
-- addChild(_:) / removeFromParent() / willMove(toParent:) / didMove(toParent:): addChild calls the
-- child's willMove(toParent:) for you, the container adds the child's view and then calls
-- didMove(toParent:); to remove, call willMove(toParent: nil), remove the view, then
-- removeFromParent(), which calls didMove(toParent: nil); a container forwards appearance
-- callbacks to its children automatically (shouldAutomaticallyForwardAppearanceMethods).
-- Reference §5.6.
local h = require "helpers"

local function vc_calls(dev, m)
  local out = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback", since = m }) do
    if r.vc then out[#out + 1] = r.vc .. " " .. r.callback end
  end
  return out
end

lifesim.test("a child added to a container on screen: willMove, its view, it appears, didMove", function()
  local dev, app = h.launched({ ios = 12 }, { root = { class = "Root" } })
  local m = dev:mark()
  local child = app.top:add_child{ class = "Child", from = "code" }
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "Child initWithNibName:bundle:", "Child willMoveToParentViewController:",
    "Child loadView", "Child viewDidLoad",
    "Child viewWillAppear:",
    "Child viewWillLayoutSubviews", "Child viewDidLayoutSubviews",
    "Child viewWillLayoutSubviews", "Child viewDidLayoutSubviews",
    "Child viewDidAppear:",
    "Child didMoveToParentViewController:",
  })
  assert(child.parent == app.top and #app.top.children == 1 and child.presentation == "child")
  assert(child.state == "appeared")
end)

lifesim.test("the container forwards its appearance: a push covers both, a pop reveals both", function()
  local dev, app = h.launched({ ios = 12 }, { root = { class = "Root" } })
  local child = app.top:add_child{ class = "Child" }
  local m = dev:mark()
  app:push{ class = "Detail" }
  local got = vc_calls(dev, m)
  local function index(x) for i, c in ipairs(got) do if c == x then return i end end end
  assert(index("Child viewWillDisappear:") == index("Root viewWillDisappear:") + 1, table.concat(got, ", "))
  assert(index("Child viewDidDisappear:") == index("Root viewDidDisappear:") + 1)
  assert(child.state == "disappeared")
  m = dev:mark()
  app:pop()
  got = vc_calls(dev, m)
  assert(index("Child viewWillAppear:") == index("Root viewWillAppear:") + 1, table.concat(got, ", "))
  assert(child.state == "appeared")
end)

lifesim.test("removing a child: willMove, it disappears, didMove, dealloc", function()
  local dev, app = h.launched({ ios = 12 }, { root = { class = "Root" } })
  local child = app.top:add_child{ class = "Child" }
  local m = dev:mark()
  child:remove_from_parent()
  lifesim.expect_callbacks(vc_calls(dev, m), {
    "Child willMoveToParentViewController:", "Child viewWillDisappear:", "Child viewDidDisappear:",
    "Child didMoveToParentViewController:", "Child dealloc",
  })
  assert(#app.top.children == 0 and child.state == "deallocated")
  local ok, err = pcall(child.remove_from_parent, child)
  assert(not ok and tostring(err):find("not a child", 1, true), tostring(err))
end)

lifesim.test("a child added to a container off screen appears with it later", function()
  local dev, app = h.launched({ ios = 12 }, { root = { class = "Root" } })
  local detail = app:push{ class = "Detail" }
  local root = app.stack[1]
  local child = root:add_child{ class = "Child" }
  assert(child.state == "disappeared", "off screen: no appearance yet, got " .. child.state)
  app:pop()
  assert(child.state == "appeared" and detail.state == "deallocated")
end)

lifesim.test("iOS 17: a child appearing gets viewIsAppearing: too, with its container or on its own", function()
  local dev, app = h.launched({ ios = 17 }, { root = { class = "Root" } })
  local m = dev:mark()
  app.top:add_child{ class = "Child" }
  local got = vc_calls(dev, m)
  local function index(x) for i, c in ipairs(got) do if c == x then return i end end end
  assert(index("Child viewIsAppearing:") == index("Child viewWillAppear:") + 1, table.concat(got, ", "))
  app:push{ class = "Detail" }
  m = dev:mark()
  app:pop()
  got = vc_calls(dev, m)
  assert(index("Child viewIsAppearing:") == index("Root viewIsAppearing:") + 1, table.concat(got, ", "))
end)

-- A child added from applicationDidBecomeActive: at launch, when the root view controller has had
-- viewWillAppear: and not yet viewDidAppear:. Reference §5.6 (a bug report; profile fact
-- child_appears_twice_mid_appearance): the child's viewDidAppear: ran once on iOS 5.0 and twice
-- on iOS 6.1, and once when the addition was delayed by 0.1 s.
local function add_child_when_active(ios, delay)
  local dev = lifesim.device{ ios = ios }
  local app = dev:install{ bundle = "com.example.containment", root = { class = "Root" } }
  app:on("applicationDidBecomeActive:", function(ctx)
    if delay then
      ctx:after(delay, function(c) c.app.top:add_child{ class = "A" } end)
    else
      ctx.app.top:add_child{ class = "A" }
    end
  end)
  local m = dev:mark()
  dev:launch(app)
  dev:advance(1)
  local did = {}
  for _, c in ipairs(vc_calls(dev, m)) do
    if c == "A viewDidAppear:" or c == "Root viewDidAppear:" then did[#did + 1] = c end
  end
  return table.concat(did, ", "), app, dev
end

lifesim.test("a child added while its container appears: viewWillAppear: now, viewDidAppear: with the container's", function()
  for _, ios in ipairs{ 5, 7, 12 } do
    local did, app = add_child_when_active(ios)
    assert(did == "Root viewDidAppear:, A viewDidAppear:", ios .. ": " .. did)
    assert(app.top.children[1].state == "appeared")
  end
end)

lifesim.test("iOS 6: the child's viewDidAppear: twice, as it is added and forwarded; delayed 0.1 s, once", function()
  local did, app, dev = add_child_when_active(6)
  assert(did == "A viewDidAppear:, Root viewDidAppear:, A viewDidAppear:", did)
  assert(app.top.children[1].state == "appeared")
  assert(dev.profile.child_appears_twice_mid_appearance == true)
  did = add_child_when_active(6, 0.1)
  assert(did == "Root viewDidAppear:, A viewDidAppear:", did)
end)
