import Foundation
import Testing

/// `lifesim explore` gives the right answer: the same for any --jobs, with
/// every part of the state counted, and counterexamples that run as the
/// search ran them.
struct ExploreAnswerTests {
  /// A timer that comes due while its app is suspended waits for the app to
  /// run again: such a state is not the same as one without the timer.
  @Test func aParkedTimerIsPartOfTheState() throws {
    let file = try script("explore_parked.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      app:on("applicationDidReceiveMemoryWarning:", function(ctx)
        local at = dev.now
        ctx:after(1, function() if dev.now - at > 5 then error("refresh timer fired late") end end)
      end)
      lifesim.invariant("ok", function() return true end)
      """)
    let r = try lifesim(["explore", file, "--depth", "6", "--quiet"])
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("a handler fails after 5 steps: launch com.example.a, memory_warning, home, advance 10, "
                              + "launch com.example.a"), "\(r.stdout)")
    #expect(r.stdout.contains("refresh timer fired late"))
  }

  /// The workers may expand nodes past the one that breaks an invariant; an
  /// error in one of those must not replace the answer, whatever --jobs.
  @Test func anErrorPastTheViolationDoesNotDependOnJobs() throws {
    let file = try script("explore_jobs_error.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      local v, flag = 0, false
      for i = 1, 20 do lifesim.action("a" .. i, function(d) v = i end) end
      lifesim.action("go", function(d) flag = true end)
      for _, n in ipairs{ "launch com.example.a", "home", "lock", "unlock", "call", "end_call", "switcher",
                          "kill com.example.a", "memory_warning", "memory_pressure", "background_fetch com.example.a",
                          "advance 1", "advance 10", "advance 60" } do
        lifesim.action(n, false)
      end
      lifesim.state_key(function(d) if v == 20 and flag then error("boom") end return v .. (flag and "f" or "") end)
      lifesim.invariant("not v1 with flag", function(d) return not (v == 1 and flag), "v=1 and flag" end)
      """)
    let one = try lifesim(["explore", file, "--quiet", "-j", "1"])
    let two = try lifesim(["explore", file, "--quiet", "-j", "2"])
    #expect(one.status == 1, "\(one.stderr)")
    #expect(one.stdout.contains("invariant 'not v1 with flag' does not hold after 2 steps: a1, go"))
    #expect(two.status == one.status && two.stdout == one.stdout, "\(two.stdout)\(two.stderr)")
  }

  /// A set-up that reads a file can make an invariant fail in one runtime
  /// and hold in another (a step may not use a file: `Explorer.fileLock`):
  /// the violation is replayed from the start before it is reported, and the
  /// search says it cannot be replayed.
  @Test func aViolationThatDoesNotReplayIsAnError() throws {
    let counter = FileManager.default.temporaryDirectory.appendingPathComponent("explore-reads-\(getpid())")
    defer { try? FileManager.default.removeItem(at: counter) }
    let file = try script("explore_reads.lua", """
      local path = "\(counter.path)"
      local f = io.open(path, "r"); local n = f and tonumber(f:read("a")) or 0
      if f then f:close() end
      f = io.open(path, "w"); f:write(tostring(n + 1)); f:close()
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
      lifesim.invariant("the first set-up never opens an app", function(d)
        return n > 0 or d.stats.opens == 0, "set-up number " .. n
      end)
      """)
    let r = try lifesim(["explore", file, "--unsafe", "--depth", "4", "--quiet"])
    #expect(r.status == 2, "\(r.stdout)")
    #expect(r.stderr.contains("did not happen again when replayed from the start"), "\(r.stderr)")
    #expect(!r.stderr.contains("Usage:"), "an error of the script is not a usage error")
  }

  /// The counterexample runs whatever the script ends with, names actions
  /// with quotes in them, keeps the script's line numbers, and says which
  /// flags its run needs.
  @Test func counterexamplesRunAsTheSearchDid() throws {
    let dir = FileManager.default.temporaryDirectory
    let returning = try script("explore_returns.lua", """
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
      notes:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(1) end)
      lifesim.invariant("no loss", function(d) return d.stats.unsaved_lost == 0, "lost" end)
      return dev
      """)
    let out1 = dir.appendingPathComponent("cx-returns-\(getpid()).lua")
    defer { try? FileManager.default.removeItem(at: out1) }
    #expect(try lifesim(["explore", returning, "--quiet", "-o", out1.path]).status == 1)
    let run1 = try lifesim(["run", out1.path])
    #expect(run1.status != 0 && run1.stderr.contains("invariant 'no loss' does not hold after launch com.example.notes, "
                                                    + "kill com.example.notes: lost"), "\(run1.stderr)")

    let quoted = try script("explore_quoted.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      local hit = false
      lifesim.action('tap "Save"', function() hit = true end)
      lifesim.state_key(function() return tostring(hit) end)
      lifesim.invariant("never saved", function() return not hit, "saved" end)
      """)
    let out2 = dir.appendingPathComponent("cx-quoted-\(getpid()).lua")
    defer { try? FileManager.default.removeItem(at: out2) }
    #expect(try lifesim(["explore", quoted, "--quiet", "-o", out2.path]).status == 1)
    let run2 = try lifesim(["run", out2.path])
    #expect(run2.stderr.contains("invariant 'never saved' does not hold after tap \"Save\": saved"), "\(run2.stderr)")

    // A handler error names the same line in the search and in the run, and
    // a seed the search ran under is in the command the search prints.
    let failing = try script("explore_line.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      local r = math.random(1000)
      app:on("applicationDidEnterBackground:", function(ctx)
        if r % 2 == 1 then
          error("odd r")
        end
      end)
      lifesim.invariant("always", function() return true end)
      """)
    let out3 = dir.appendingPathComponent("cx-line-\(getpid()).lua")
    defer { try? FileManager.default.removeItem(at: out3) }
    // Seeds 1 to 6: at least one gives an odd r.
    var found = false
    for seed in 1...6 where !found {
      let e = try lifesim(["explore", failing, "--quiet", "--seed", String(seed), "-o", out3.path])
      guard e.status == 1 else { continue }
      found = true
      #expect(e.stdout.contains("explore_line.lua:6: odd r"), "\(e.stdout)")
      #expect(e.stderr.contains("`lifesim run --seed \(seed) \(out3.path)` fails the same way"), "\(e.stderr)")
      let run = try lifesim(["run", "--seed", String(seed), out3.path])
      #expect(run.stderr.contains("cx-line-\(getpid()).lua:6: odd r"), "\(run.stderr)")
    }
    #expect(found)
  }

  /// An action of the script's own that the device refuses (a link opened on
  /// a locked phone) is a refused step, as a default step would be.
  @Test func aRefusedActionOfTheScriptIsNotAViolation() throws {
    let file = try script("explore_refused_action.lua", """
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
      lifesim.action("open link", function(d) d:open_url(notes, "notes://new") end)
      lifesim.invariant("no data loss", function(d) return d.stats.unsaved_lost == 0, "lost" end)
      """)
    let r = try lifesim(["explore", file, "--depth", "3", "--quiet"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("no violation up to depth 3"))
  }

  /// A reachable property that raises is an error of the script; in random
  /// mode the properties are looked for too, and the output says walks.
  @Test func reachablePropertiesInBothModes() throws {
    let raising = try script("explore_reach_raises.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      lifesim.reachable("typo", function(d) return d.nosuch.field end)
      lifesim.invariant("always", function() return true end)
      """)
    let r = try lifesim(["explore", raising, "--depth", "2", "--quiet"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("lifesim.reachable 'typo' failed:"), "\(r.stderr)")
    let never = try script("explore_reach_never.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      lifesim.reachable("suspended", function(d) return app.state == "suspended" end)
      lifesim.reachable("never", function(d) return false end)
      lifesim.invariant("always", function() return true end)
      """)
    let w = try lifesim(["explore", never, "--random", "20", "--length", "10", "--quiet"])
    #expect(w.status == 1, "\(w.stdout)\(w.stderr)")
    #expect(w.stdout.contains("reachable 'suspended': reached"))
    #expect(w.stdout.contains("reachable 'never': never reached"))
    #expect(w.stdout.contains("no violation in 20 random walks of 10 steps"))
    let both = try lifesim(["explore", never, "--random", "2", "--depth", "3"])
    #expect(both.status == 2 && both.stderr.contains("--depth is for the breadth-first search"))
  }

  /// --max-states counts the states kept, the first state included, and a
  /// search it stops says it did not finish.
  @Test func maxStatesIsAnUpperBound() throws {
    let r = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--max-states", "5"])
    #expect(r.stderr.contains(" 5 distinct"), "\(r.stderr)")
    #expect(r.stdout.contains("no violation in the 5 distinct states explored: the search stopped at --max-states 5"))
    let empty = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--actions", " , "])
    #expect(empty.status == 2 && empty.stderr.contains("--actions names no action"))
    let negative = try lifesim(["explore", "Scripts/explore/correct_app.lua", "--actions", "advance -5", "--quiet"])
    #expect(negative.status == 2 && negative.stderr.contains("advance takes a positive number of seconds"))
  }
}
