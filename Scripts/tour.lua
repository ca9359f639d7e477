-- A first tour of lifesim: one notes app on iOS 17 (scenes) and on iOS 12 (app delegate), step by step.
-- Run it with `lifesim run Scripts/tour.lua -o tour_trace.txt`: the walk-through
-- prints here, and the full trace (states, notifications, snapshots) goes to the file.

-- The user's day with the app, as a list of steps: a label and what the user does.
local steps = {
  { "tap the icon",              function(dev, app) dev:launch(app) end },
  { "press Home",                function(dev) dev:home() end },
  { "wait 40 s (nothing fires)", function(dev) dev:advance(40) end },
  { "tap the icon again",        function(dev, app) dev:launch(app) end },
  { "open the switcher",         function(dev) dev:switcher() end },
  { "swipe the app away",        function(dev, app) dev:kill(app) end },
}

-- Runs every step on a fresh device and prints, under each step, the callbacks
-- it caused. Returns the callbacks per step, to check them afterwards.
local function walk(ios)
  local dev = lifesim.device{ ios = ios, seed = 1 }
  local notes = dev:install{ bundle = "com.example.notes" }
  print(("iOS %d, %s model"):format(ios, notes.model))
  local seen = {}
  for i, step in ipairs(steps) do
    local label, act = step[1], step[2]
    local m = dev:mark()
    act(dev, notes)
    seen[i] = dev.trace:callbacks{ app = notes, since = m }
    print(("  %-26s -> state %s"):format(label, notes.state))
    for _, selector in ipairs(seen[i]) do print("      " .. selector) end
  end
  print()
  return seen, notes
end

local ios17, notes17 = walk(17)
local ios12, notes12 = walk(12)

-- What to notice, and check:
-- 1. Home: iOS 17 tells the scene delegate, iOS 12 the app delegate.
lifesim.expect_callbacks(ios17[2], { "sceneWillResignActive:", "sceneDidEnterBackground:" })
lifesim.expect_callbacks(ios12[2], { "applicationWillResignActive:", "applicationDidEnterBackground:" })
-- 2. Forty seconds in the background: suspended, silently.
lifesim.expect_callbacks(ios17[3], {})
lifesim.expect_callbacks(ios12[3], {})
-- 3. Swiping the app away: the scene disconnects on iOS 17; on iOS 12 the app
--    passes through the background before it is terminated.
lifesim.expect_callbacks(ios17[6], {
  "sceneDidDisconnect:", "application:didDiscardSceneSessions:", "applicationWillTerminate:",
})
lifesim.expect_callbacks(ios12[6], { "applicationDidEnterBackground:", "applicationWillTerminate:" })
assert(notes17.state == "notRunning" and notes12.state == "notRunning", "both apps end not running")
