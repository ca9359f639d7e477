import LifeSimLua

import LifeSimPlatform

/// The session as a scenario script (`:save`): its set-up, then every chunk that
/// ran, in order. `lifesim run` on the result gives the session's trace.
struct SessionScript {
  /// The file the session started from, inlined at the top of the script.
  var file: String?
  /// `--seed`: devices made without a seed use it, so the script says to pass it.
  var seed: UInt64 = 1
  private(set) var chunks: [String] = []

  /// The lines that make the ready `dev` and `app` of a session without a file.
  func defaultSetup(ios: Int) -> [String] {
    ["dev = lifesim.device{ ios = \(ios) }",
     "app = dev:install{ bundle = \"com.example.notes\", root = { class = \"NotesViewController\", from = \"storyboard\" } }"]
  }

  /// A chunk that ran, kept so that it means in the script what it meant in the
  /// session, where each chunk is a function of its own (as in lua.c):
  /// - an expression that is not a statement (`app.state`) becomes
  ///   `do local _ = … end`, so that whatever it touched is touched again;
  /// - a chunk with a `local` is wrapped in `do … end`, so its locals end with it;
  /// - a chunk with a `return` is wrapped in a function, so it ends only itself.
  mutating func append(_ chunk: String, asStatement: Bool) {
    guard asStatement else {
      chunks.append("do local _ = \(chunk) end")
      return
    }
    // A rough scan: a keyword inside a string or comment only costs a wrapper.
    let words = Set(chunk.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }))
    if words.contains("return") {
      chunks.append("do (function()\n\(chunk)\nend)() end")
    } else if words.contains("local") {
      chunks.append("do\n\(chunk)\nend")
    } else {
      chunks.append(chunk)
    }
  }

  /// A chunk that raised after changing the trace: kept, under `pcall`, so the
  /// script does what the session did and goes on.
  mutating func appendFailed(_ chunk: String, message: String) {
    let note = message.split(separator: "\n").first.map(String.init) ?? message
    chunks.append("-- this chunk failed in the session: \(note)\npcall(function()\n\(chunk)\nend)")
  }

  /// The script's text. `ios` is the ready device's iOS version (no file).
  func text(ios: Int) throws -> String {
    let run = seed == 1 ? "lifesim run FILE.lua" : "lifesim run --seed \(seed) FILE.lua"
    var out = "-- A lifesim REPL session, saved by :save. Replay it with: \(run)\n"
    if let file {
      let bytes = try readFileBytes(file)
      out += "-- from \(file):\ndo\n" + String(decoding: withoutByteOrderMark(bytes), as: UTF8.self)
      if !out.hasSuffix("\n") { out += "\n" }
      out += "end\n"
    } else {
      out += defaultSetup(ios: ios).joined(separator: "\n") + "\n"
    }
    out += "\n"
    for chunk in chunks { out += chunk + "\n" }
    return out
  }
}
