-- Quirks: documented variants for the contradictions of reference §8, each off by default.
local h = require "helpers"

lifesim.test("the quirks are listed with what they change", function()
  local names = {}
  for name, summary in pairs(lifesim.quirks) do
    names[#names + 1] = name
    assert(summary:find("reference §8", 1, true), name .. " cites no reference section")
  end
  table.sort(names)
  assert(table.concat(names, " ") == "background_launch_enters_background disconnect_on_background "
    .. "exits_on_suspend_terminate_only force_quit_deletes_restoration prewarm_skips_launch_methods root_appears_before_active "
    .. "scene_force_quit_enters_background", table.concat(names, " "))
  local dev = lifesim.device{ ios = 17 }
  assert(#dev.quirks == 0, "off by default")
end)

lifesim.test("§8.2 scene_force_quit_enters_background: Neuburg's early-iOS-13 order", function()
  local dev, notes = h.launched({ ios = 13, quirks = { scene_force_quit_enters_background = true } })
  assert(dev.quirks[1] == "scene_force_quit_enters_background")
  dev:switcher()

  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidEnterBackground:", "applicationWillTerminate:",
  })

  -- The discarded session is reported at the next launch instead.
  m = dev:mark()
  dev:launch(notes)
  local launch = dev.trace:callbacks{ app = notes, since = m }
  assert(launch[3] == "application:didDiscardSceneSessions:", launch[3])
end)

lifesim.test("§8.3 disconnect_on_background: the template comment's disconnect after backgrounding", function()
  local dev, notes = h.launched({ ios = 17, quirks = { disconnect_on_background = true } })

  local m = dev:mark()
  dev:home()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidEnterBackground:",
    "sceneDidDisconnect:",
    "scene:willConnectToSession:options:",  -- the session survives: no configuration request
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
end)

lifesim.test("without the quirk, Home never disconnects (§8.3 default)", function()
  local dev, notes = h.launched({ ios = 17 })
  local m = dev:mark()
  dev:home()
  dev:advance(3600)
  assert(notes.scenes[1].connected, "still connected after an hour in the background")
  assert(#h.only(dev.trace:callbacks{ app = notes, since = m }, { "sceneDidDisconnect:" }) == 0)
end)

lifesim.test("§8.7 exits_on_suspend_terminate_only: Apple's guide, with no background state", function()
  local dev, notes = h.launched({ ios = 12, quirks = { "exits_on_suspend_terminate_only" } },
                                { exits_on_suspend = true })
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:", "applicationWillTerminate:",
  })
  assert(notes.state == "notRunning")
end)

lifesim.test("unknown quirks are refused with the list", function()
  local ok, err = pcall(lifesim.device, { quirks = { disconect_on_background = true } })
  assert(not ok and err:find("unknown quirk 'disconect_on_background'", 1, true), err)
  assert(err:find("did you mean 'disconnect_on_background'", 1, true), err)
  ok, err = pcall(lifesim.device, { quirks = { disconnect_on_background = "yes" } })
  assert(not ok and err:find("must be true or false", 1, true), err)
end)
