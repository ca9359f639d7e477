-- The background scenario of docs/scenarios.md: an upload in a background task on iOS 17, then a game's memory, and jetsam.
local dev = lifesim.device{ ios = 17, memory_mb = 2048 }   -- per-process limit: 50% of RAM
local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 600 }
local mail = dev:install{ bundle = "com.example.mail", footprint_mb = 500 }
local game = dev:install{ bundle = "com.example.game", footprint_mb = 300 }

notes:on("sceneDidEnterBackground:", function(ctx)
  ctx:dirty(1)                                   -- an edit the user just made
  local task = ctx:begin_background_task("upload", function(t) t:finish() end)
  ctx:after(20, function(ctx)                    -- the upload ends after 20 s
    ctx:save()
    task:finish()
  end)
end)
game:on("sceneDidBecomeActive:", function(ctx) ctx:allocate(600) end)

dev:launch(notes)
dev:home()                                       -- the task keeps notes running
dev:launch(mail)
dev:home()
dev:advance(25)                                  -- the upload is done; notes is suspended
assert(notes.state == "suspended" and notes.unsaved == 0)
dev:launch(game)                                 -- 2000 MB of 2048 in use: jetsam
assert(notes.state == "notRunning", "notes goes first: suspended and least recently used")
assert(mail.state == "suspended" and game.state == "active")
assert(#dev.trace:records{ kind = "data_loss" } == 0, "notes had saved in time")
