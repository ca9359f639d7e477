import Foundation
import Testing

/// Each log under Scripts/explain/ and the explanation lifesim gives of it
/// (NAME.expected: the command on its first line, the exit status on its
/// second, then standard output as it is).
struct ExplainExamplesTests {
  static let folder = repoRoot.appendingPathComponent("Scripts/explain")

  static var logs: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
      .filter { !$0.hasSuffix(".expected") && !$0.hasSuffix(".md") }.sorted()
  }

  @Test func everyExampleHasItsExplanation() throws {
    #expect(Self.logs.count >= 3)
    for name in Self.logs {
      let stem = name.split(separator: ".").dropLast().joined(separator: ".")
      let expected = try String(contentsOf: Self.folder.appendingPathComponent(stem + ".expected"), encoding: .utf8)
      var lines = expected.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
      let command = lines.removeFirst(), status = lines.removeFirst()
      let prefix = "# lifesim explain Scripts/explain/\(name)"
      #expect(command.hasPrefix(prefix), "\(stem).expected: its first line is `\(prefix) …`")
      let args = command.dropFirst(prefix.count).split(separator: " ").map(String.init)
      let r = try lifesim(["explain", "Scripts/explain/\(name)"] + args)
      #expect("# exit status \(r.status)" == status, "\(name): \(r.stderr)")
      #expect(r.stdout == (lines.first ?? ""), "\(name)")
    }
  }

  /// `lifesim test Scripts` runs the .lua files only: the logs are not scripts.
  @Test func theLogsAreNotLuaFiles() {
    #expect(Self.logs.allSatisfy { !$0.hasSuffix(".lua") })
  }
}
