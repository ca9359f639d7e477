import Foundation
import Testing

/// The script `lifesim explain -o` writes passes under `lifesim run` for
/// screens whose names escape alike or are longer than a class name may be,
/// and the answer never prints a name uncut.
struct ExplainScriptNamesCLITests {
  private func explainAndRun(_ name: String, _ crumbs: [String]) throws -> (stdout: String, stderr: String) {
    let values = crumbs.map { screen in
      screen == "foreground" || screen == "background"
        ? #"{"category": "app.lifecycle", "data": {"state": "\#(screen)"}}"#
        : #"{"category": "ui.lifecycle", "data": {"screen": \#(screen)}}"#
    }
    let log = try script(name + ".json", #"{"breadcrumbs": {"values": ["# + values.joined(separator: ",\n") + "]}}")
    let out = tempPath(name + "-replay.lua")
    try? FileManager.default.removeItem(atPath: out)
    let r = try lifesim(["explain", log, "-o", out, "--alternatives", "0"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "the script explain wrote fails: \(run.stdout.suffix(2000))\(run.stderr.suffix(2000))")
    return (r.stdout, r.stderr)
  }

  /// `X\nY` (a newline), `X\\nY` (a backslash and an n) and `'X\\nY'` (the
  /// newline's escaped form, quotes included) are three classes.
  @Test func screensWhoseNamesEscapeAlikeAreThreeClasses() throws {
    let (stdout, _) = try explainAndRun("explain-escapes",
                                        ["foreground", #""Home""#, #""X\nY""#, #""X\\nY""#, #""'X\\nY'""#])
    #expect(stdout.contains("push 'X\\nY'") && stdout.contains("push 'X\\\\nY'") && stdout.contains("push '\\'X\\\\nY\\''"),
            "\(stdout)")
  }

  @Test func aScreenNameLongerThanAClassNameIsCutWithANote() throws {
    let long = String(repeating: "L", count: 5_000)
    let (stdout, stderr) = try explainAndRun("explain-long-screen", ["foreground", #""Home""#, "\"\(long)\""])
    #expect(!stdout.contains(long) && !stderr.contains(long))
    #expect(stdout.contains("…' (5000 bytes, #"), "\(stdout.prefix(600))")
    #expect(stderr.contains("longer than a script's may be (4096 bytes)"), "\(stderr)")
  }
}
