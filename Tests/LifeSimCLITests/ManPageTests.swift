import Foundation
import Testing

/// The man page and the shell completions: both come from
/// argument-parser's own description of the commands, so they cannot drift
/// from the options.
struct ManPageTests {
  /// docs/man/lifesim.1 is what argument-parser's generate-manual makes of
  /// this binary today (with the page's own date): regenerate it with
  /// `.build/debug/generate-manual .build/debug/lifesim --date YYYY-MM-DD
  /// --authors "the lifesim authors" -o docs/man` when a command changes.
  @Test func theCommittedManPageIsUpToDate() throws {
    let tool = binary.deletingLastPathComponent().appendingPathComponent("generate-manual")
    #expect(FileManager.default.isExecutableFile(atPath: tool.path),
            "no \(tool.path): ./dev.sh test builds it (swift build --product generate-manual)")
    guard FileManager.default.isExecutableFile(atPath: tool.path) else { return }
    let page = contents(repoRoot.appendingPathComponent("docs/man/lifesim.1").path)
    // ".Dd November 24, 2026" -> 2026-11-24
    let dd = try #require(page.split(separator: "\n").first { $0.hasPrefix(".Dd ") })
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "MMMM d, yyyy"
    let date = try #require(f.date(from: String(dd.dropFirst(4))))
    f.dateFormat = "yyyy-MM-dd"
    let made = try runTool([tool.path, binary.path, "--date", f.string(from: date), "--authors", "the lifesim authors", "-o", "-"])
    #expect(made.status == 0, "\(made.stderr)")
    let fresh = made.stdout
    #expect(fresh.contains(".It Em explore") && fresh.contains("junit-xml"))
    // (Written to a file, the page has no final newline; to stdout it has one.)
    #expect(fresh.trimmingCharacters(in: .newlines) == page.trimmingCharacters(in: .newlines),
            "docs/man/lifesim.1 is out of date: regenerate it (see this test's comment)")
  }

  @Test(arguments: ["bash", "zsh", "fish"])
  func completionScriptsKnowEveryCommand(shell: String) throws {
    let r = try lifesim(["--generate-completion-script", shell])
    #expect(r.status == 0, "\(r.stderr)")
    for word in ["run", "explore", "batch", "summary", "junit-xml", "format"] {
      #expect(r.stdout.contains(word), "\(shell): no \(word)")
    }
    if shell == "bash" {
      // Loaded into bash, it registers a completion for lifesim.
      let file = try script("lifesim-completion.bash", r.stdout)
      let said = try runTool(["bash", "-c", "source '\(file)' && complete -p lifesim"]).stdout
      #expect(said.contains("lifesim"), "\(said)")
    }
  }
}
