import Foundation
import Testing

/// Runs `lifesim repl ARGS` with `input` on a pipe as its stdin.
func repl(_ input: String, _ args: [String] = [], env: [String: String] = [:]) throws -> Result {
  let p = Process()
  p.executableURL = binary
  p.arguments = ["repl"] + args
  p.currentDirectoryURL = repoRoot
  if !env.isEmpty { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
  let inPipe = Pipe(), out = Pipe(), err = Pipe()
  p.standardInput = inPipe
  p.standardOutput = out
  p.standardError = err
  try p.run()
  inPipe.fileHandleForWriting.write(Data(input.utf8))
  try inPipe.fileHandleForWriting.close()
  let o = out.fileHandleForReading.readDataToEndOfFile()
  let e = err.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                stderr: String(decoding: e, as: UTF8.self))
}

struct REPLPipeTests {
  @Test func valuesTracesMultiLineChunksAndErrorRecovery() throws {
    let r = try repl("""
      app.state
      dev:launch(app)
      function twice(x)
        return 2 * x
      end
      twice(21)
      for i = 1, 2 do
        dev:advance(1)
      end
      dev.now
      this_is_nil()
      { launches = app.launches, app = app }
      1 +
      2
      x = = 1
      "still here"

      """)
    #expect(r.status == 0, "\(r.stderr)")
    let out = r.stdout.split(separator: "\n").map(String.init)
    #expect(out.first == #""notRunning""#)
    // The launch's records follow the line, then the function's value, and so on.
    let launch = try #require(out.firstIndex(of: "[t=0.000000] com.example.notes action launch"))
    #expect(out[launch + 1] == "[t=0.000000] com.example.notes state notRunning -> inactive")
    #expect(out.contains("[t=0.000000] com.example.notes -[SceneDelegate sceneDidBecomeActive:]"))
    #expect(out.contains("42"))
    #expect(out.contains("2.0"))  // dev.now after two advances
    #expect(out.contains("{ app = <app com.example.notes: active, 100 MB, pid 1>, launches = 1 }"))
    #expect(out.contains("3"))  // 1 + 2 over two lines
    #expect(out.last == #""still here""#)
    // Errors go to stderr, with their location, and the session goes on.
    #expect(r.stderr.contains("stdin:1: attempt to call a nil value (global 'this_is_nil')"))
    #expect(r.stderr.contains("stdin:1: unexpected symbol near '='"))
    // Piped: no prompts, no banner, no escape codes.
    #expect(!out.contains { $0.hasPrefix("> ") || $0.hasPrefix(">> ") })
    #expect(!r.stdout.contains("lifesim 0"))
    #expect(!r.stdout.contains("\u{1B}["))
  }

  @Test func metaCommands() throws {
    let r = try repl("""
      dev:launch(app)
      app:push{ class = "DetailViewController" }
      :time
      dev:advance(2.5)
      :time
      :state
      :help launch
      :help nosuch
      :trace off
      dev:home()
      :trace jsonl
      dev:launch(app)
      :trace
      :bogus
      x = 1
      :reset
      x
      dev.now
      :quit
      "never reached"

      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("t=0.000000 (0 s)"))
    #expect(r.stdout.contains("t=2.500000 (2.5 s)"))
    #expect(r.stdout.contains("com.example.notes active"))
    #expect(r.stdout.contains("1:foregroundActive"))
    #expect(r.stdout.contains("DetailViewController"))
    #expect(r.stdout.contains("dev:launch(app [, { url = \"…\" }])"))
    #expect(r.stderr.contains("no help for 'nosuch'"))
    #expect(!r.stdout.contains("action home"), ":trace off shows nothing")
    #expect(r.stdout.contains(#"{"t":2.500000,"seq":"#) && r.stdout.contains(#""action":"launch"}"#))
    #expect(r.stdout.contains("trace: jsonl"))
    #expect(r.stderr.contains("unknown command :bogus"))
    // After :reset, the globals are gone and the device starts again.
    let afterReset = try #require(r.stdout.components(separatedBy: "reset\n").last)
    #expect(afterReset.hasPrefix("nil\n0.0\n"), "\(afterReset)")
    #expect(!r.stdout.contains("never reached"))
  }

  /// `:save` writes the session as a script, and `lifesim run` of that script gives
  /// the session's trace, byte for byte: handlers, timers, expressions, a chunk that
  /// failed half way and a chunk that only read state included.
  @Test func savedSessionReplaysTheSameTrace() throws {
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-repl-saved.lua").path
    try? FileManager.default.removeItem(atPath: saved)
    let r = try repl("""
      app:on("sceneDidEnterBackground:", function(ctx)
        ctx:dirty(2)
        ctx:after(5, function(c) c:save() end)
      end)
      dev:launch(app)
      app.state
      dev:home()
      dev:advance(math.random(3, 9))
      dev:launch(app); error("half way")
      typo(
      )
      local k = 5
      dev:log(tostring(k))
      return dev:log("returned")
      dev:log("after")
      dev:kill(app)
      dev:launch(app)
      :save \(saved)
      print("--TRACE--")
      print(dev.trace:text{ format = "jsonl" })

      """, ["--seed", "7"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("saved 12 chunks to \(saved)"))
    let sessionTrace = try #require(r.stdout.components(separatedBy: "--TRACE--\n").last)
    let script = try String(contentsOfFile: saved, encoding: .utf8)
    #expect(script.contains("lifesim run --seed 7 FILE.lua"))
    #expect(script.contains("pcall(function()\ndev:launch(app); error(\"half way\")\nend)"))
    #expect(!script.contains("typo"), "a chunk that failed without effect is left out")
    let run = try lifesim(["run", saved, "--seed", "7", "--format", "jsonl"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout + "\n" == sessionTrace)
    #expect(run.stdout.contains(#""kind":"kill""#))
    // Each chunk is its own function in the session; the script keeps it so.
    #expect(run.stdout.contains(#""detail":"nil""#), "a local ends with its chunk")
    #expect(run.stdout.contains(#""detail":"after""#), "a return ends only its chunk")
  }

  @Test func aFileRunsFirstAndItsGlobalsStay() throws {
    let file = try script("repl_setup.lua", """
      phone = lifesim.device{ ios = 12 }
      mail = phone:install{ bundle = "com.example.mail" }
      phone:launch(mail)
      local hidden = 1
      """)
    let saved = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-repl-file.lua").path
    let r = try repl("""
      mail.state
      hidden
      dev
      phone:home()
      :save \(saved)
      print("--TRACE--")
      print(phone.trace:text())

      """, [file])
    #expect(r.status == 0, "\(r.stderr)")
    let out = r.stdout.split(separator: "\n").map(String.init)
    #expect(Array(out.prefix(3)) == [#""active""#, "nil", "nil"])
    #expect(out.contains("[t=0.000000] com.example.mail -[AppDelegate applicationDidEnterBackground:]"))
    let live = try #require(r.stdout.components(separatedBy: "--TRACE--\n").first)
    #expect(!live.contains("action launch"), "the file's records are not repeated")
    let run = try lifesim(["run", saved])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout + "\n" == r.stdout.components(separatedBy: "--TRACE--\n").last)
  }

  /// `:save` refuses every file the session read, not only its script: a
  /// module it required (from the file or at the prompt) and a data file.
  @Test func saveRefusesEveryFileTheSessionRead() throws {
    let dir = tempPath("repl-save-modules")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let module = "return { k = 1 }\n", data = "0,com.example.a,open\n"
    try module.write(toFile: dir + "/helper.lua", atomically: true, encoding: .utf8)
    try module.write(toFile: dir + "/later.lua", atomically: true, encoding: .utf8)
    try data.write(toFile: dir + "/usage.csv", atomically: true, encoding: .utf8)
    try "helper = require 'helper'\n".write(toFile: dir + "/setup.lua", atomically: true, encoding: .utf8)
    let r = try repl("""
      later = require 'later'
      rows = lifesim.workload.read_csv('usage.csv')
      :save \(dir)/helper.lua
      :reset
      :save \(dir)/later.lua
      :save \(dir)/usage.csv
      :save \(dir)/saved.lua

      """, [dir + "/setup.lua"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("cannot save to \(dir)/helper.lua: it is the module 'helper' the session required"), "\(r.stderr)")
    #expect(r.stderr.contains("cannot save to \(dir)/later.lua: it is the module 'later' the session required"), "\(r.stderr)")
    #expect(r.stderr.contains("cannot save to \(dir)/usage.csv: it is the data file 'usage.csv' the session read"), "\(r.stderr)")
    #expect(contents(dir + "/helper.lua") == module && contents(dir + "/later.lua") == module && contents(dir + "/usage.csv") == data)
    #expect(r.stdout.contains("saved"), "\(r.stdout)")
  }

  @Test func aFailingFileStillOpensTheSession() throws {
    let file = try script("repl_broken.lua", "ready = true\nerror('broken setup')\n")
    let r = try repl("ready\n", [file])
    #expect(r.stdout == "true\n")
    #expect(r.stderr.contains("repl_broken.lua:2: broken setup"))
  }
}

/// The REPL on a real terminal: `script(1)` gives it a pseudo-terminal, so libedit
/// edits lines, Tab completes and the history file is read and written.
struct REPLTerminalTests {
  /// Runs the REPL under script(1), writing each input after its delay.
  func terminal(_ inputs: [(delay: Double, text: String)], env: [String: String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["script", "-qfec", "\(binary.path) repl --max-instructions 100000000000", "/dev/null"]
    p.currentDirectoryURL = repoRoot
    p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
    let inPipe = Pipe(), out = Pipe()
    p.standardInput = inPipe
    p.standardOutput = out
    p.standardError = out
    try p.run()
    // Never hang the suite: a REPL that ignores Ctrl-C or :quit is killed.
    let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
    for input in inputs {
      Thread.sleep(forTimeInterval: input.delay)
      inPipe.fileHandleForWriting.write(Data(input.text.utf8))
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    watchdog.cancel()
    return String(decoding: o, as: UTF8.self)
  }

  @Test func completionHistoryColourAndCtrlC() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-repl-home").path
    try? FileManager.default.removeItem(atPath: home)
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let env = ["HOME": home, "TERM": "xterm", "NO_COLOR": ""]

    let first = try terminal([
      (0.5, "dev:la\t(app)\n"),                        // method completion
      (0.3, "app:on(\"sceneDidEnterB\t, function() end)\n"),  // selector completion, the string closed by it
      (0.3, "dev:app(\"com.ex\t).state\n"),          // bundle id completion, the same
      (0.3, "n = 0 while true do n = n + 1 end\n"),   // runs until Ctrl-C
      (0.8, "\u{3}"),
      (0.3, "n > 0\n"),
      (0.3, "40 + 2\n"),
      (0.3, ":quit\n"),
    ], env: env)
    #expect(first.contains("lifesim "), "the banner")
    #expect(first.contains(":help"))
    #expect(first.contains("action launch"), "dev:la<Tab> completed to dev:launch:\n\(first)")
    #expect(first.contains("\"active\""), "the bundle id completed:\n\(first)")
    #expect(first.contains("interrupted (Ctrl-C)"), "\(first)")
    #expect(first.contains("true"), "the session survived Ctrl-C")
    #expect(first.contains("\u{1B}[1m[t=0.000000] com.example.notes action launch"), "actions are coloured")

    let history = try String(contentsOfFile: home + "/.lifesim_history", encoding: .utf8)
    #expect(history.contains("dev:launch(app)"))
    // libedit writes its history with vis(3) escapes: a space is \040.
    let lines = history.replacingOccurrences(of: "\\040", with: " ").replacingOccurrences(of: "\\\"", with: "\"")
    #expect(lines.contains("app:on(\"sceneDidEnterBackground:\", function() end)"), "Tab closed the string: \(history)")

    // A new session: Up twice recalls "40 + 2" from the history file; NO_COLOR is honoured.
    let second = try terminal([(0.5, "\u{1B}[A\u{1B}[A\n"), (0.3, "dev:launch(app)\n"), (0.3, ":quit\n")],
                              env: env.merging(["NO_COLOR": "1"]) { $1 })
    #expect(second.contains("42"), "history recall:\n\(second)")
    #expect(second.contains("action launch"))
    #expect(!second.contains("\u{1B}[1m[t="), "NO_COLOR turns colour off")
  }
}
