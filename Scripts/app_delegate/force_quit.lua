-- Force-quit from the switcher: a frontmost app gets didEnterBackground then willTerminate; a suspended one gets nothing.
local h = require "helpers"

lifesim.test("iOS 12: force-quit the frontmost app", function()
  local dev, notes = h.launched({ ios = 12 })
  dev:switcher()
  assert(notes.state == "inactive", "opening the switcher makes the app inactive")

  local m = dev:mark()
  dev:kill(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationDidEnterBackground:",
    "applicationWillTerminate:",
  })
  assert(notes.state == "notRunning", "the process is gone")
  assert(notes.pid == nil, "a process that is gone has no pid")
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "user", "one kill record with reason 'user'")
end)

lifesim.test("iOS 12: force-quit a suspended app", function()
  local dev, notes = h.launched({ ios = 12 })
  local mail = dev:install{ bundle = "com.example.mail" }
  dev:home()
  dev:launch(mail)
  dev:advance(60)
  assert(notes.state == "suspended", "notes is suspended behind mail")

  local m = dev:mark()
  dev:kill(notes)  -- opens the switcher from mail, then swipes notes away

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  assert(notes.state == "notRunning", "the suspended process is removed silently")

  -- The next tap on the icon is a cold launch.
  dev:switch_to(mail)
  dev:home()
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
  assert(notes.launches == 2, "the relaunch is a second launch")
end)
