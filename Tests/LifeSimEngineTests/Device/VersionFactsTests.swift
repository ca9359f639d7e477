import Foundation
import Testing

/// The engine asks the profile's facts (`OSProfile.lockEntersBackground`,
/// `hasNotificationCenterDelegate`, …), not its version number: a rule that
/// tests the number hides what changed in that version, and the facts are
/// what `lifesim facts` prints. Only the profile itself reads the number.
struct VersionFactsTests {
  @Test func onlyTheProfileTestsTheVersionNumber() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/LifeSimEngine")
    let walker = try #require(FileManager.default.enumerator(atPath: root.path))
    let pattern = try Regex(#"\.version\s*(>=|<=|==|!=|>|<)"#)
    var files = 0
    var found: [String] = []
    for case let relative as String in walker where relative.hasSuffix(".swift") && !relative.hasPrefix("Profile/") {
      files += 1
      let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
      for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
        if code.contains(pattern) { found.append("\(relative):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))") }
      }
    }
    #expect(files > 20)
    #expect(found.isEmpty, "version tests outside the profile:\n\(found.joined(separator: "\n"))")
  }
}
