-- OS profiles: one table of facts per iOS version (reference §7), readable as dev.profile.
local h = require "helpers"

lifesim.test("the supported versions are iOS 4 to 18, and 26", function()
  assert(table.concat(lifesim.ios_versions, ",") == "4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,26")
  local ok, err = pcall(lifesim.device, { ios = 19 })
  assert(not ok and err:find("unsupported iOS version 19 (supported: 4, 5,", 1, true), err)
end)

lifesim.test("facts change at the versions the reference gives", function()
  local function fact(ios, name) return lifesim.device{ ios = ios }.profile[name] end
  -- §7 row 13, §1.3: scenes from 13.
  assert(fact(12, "scenes") == false and fact(13, "scenes") == true)
  -- §2.3: a lock only resigns on iOS 4.
  assert(fact(4, "lock_enters_background") == false and fact(5, "lock_enters_background") == true)
  -- §3.7: UIApplicationExitsOnSuspend honoured up to 12.
  assert(fact(12, "exits_on_suspend_honoured") == true and fact(13, "exits_on_suspend_honoured") == false)
  -- §0: .pageSheet is the default modal style from 13.
  assert(fact(12, "default_modal_style") == "fullScreen" and fact(13, "default_modal_style") == "pageSheet")
  -- §0, §5.3: viewIsAppearing: never before 13, back-deployed on 13-16, public from 17.
  assert(fact(12, "view_is_appearing") == "never")
  assert(fact(16, "view_is_appearing") == "when_implemented")
  assert(fact(17, "view_is_appearing") == "always")
  -- §0, §3.4: the background-task budgets and kill codes.
  assert(fact(6, "background_task_budget") == 600 and fact(7, "background_task_budget") == 180)
  assert(fact(12, "background_task_budget") == 180 and fact(13, "background_task_budget") == 30)
  assert(fact(12, "background_task_kill_code") == "0x8badf00d")
  assert(fact(13, "background_task_kill_code") == "0x2182bad2")
  -- §7 rows 6 and 9.
  assert(fact(5, "will_finish_launching") == false and fact(6, "will_finish_launching") == true)
  assert(fact(8, "open_url_callback") == "application:openURL:sourceApplication:annotation:")
  assert(fact(9, "open_url_callback") == "application:openURL:options:")
end)

lifesim.test("a scene manifest is ignored on iOS 12 and earlier", function()
  local dev, notes = h.launched({ ios = 12 }, { scenes = true })
  assert(notes.model == "app_delegate" and #notes.scenes == 0)
  local dev13, notes13 = h.launched({ ios = 13 }, { scenes = false })
  assert(notes13.model == "app_delegate", "an app without a manifest keeps the app delegate on 13")
end)

lifesim.test("UIApplicationExitsOnSuspend: terminates on 12, ignored on 13", function()
  local dev, notes = h.launched({ ios = 12 }, { exits_on_suspend = true, scenes = false })
  dev:home()
  assert(notes.state == "notRunning")
  local dev13, notes13 = h.launched({ ios = 13 }, { exits_on_suspend = true, scenes = false })
  dev13:home()
  assert(notes13.state == "suspended")
end)

lifesim.test("device models carry RAM and the per-process limit (reference §4)", function()
  local dev = lifesim.device{ ios = 13, model = "iPhone 11" }
  assert(dev.model == "iPhone 11" and dev.memory_mb == 3844, tostring(dev.memory_mb))
  assert(dev.per_process_limit_mb == 2068, tostring(dev.per_process_limit_mb))
end)
