import Foundation
import Testing

/// `Device`'s extension files each own one concern (actions, lifecycle,
/// scenes, background, memory, view controllers, ...). They call the parts
/// and the coordinator's own files (`Device.swift`, `Device+Effects.swift`,
/// `Device+Clock.swift`, `Device+Delivery.swift`), but no two of them call
/// each other: a loop between two concerns is what makes a change to one
/// ripple through the other. A function counts as a file's when that file
/// alone declares a function of its name.
struct DeviceFileLayeringTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/LifeSimEngine/Device")
  static let coordinator: Set<String> = ["Device.swift", "Device+Effects.swift", "Device+Clock.swift", "Device+Delivery.swift"]

  /// Each file's text without comments and string literals.
  static func sources() throws -> [String: String] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasPrefix("Device") && $0.hasSuffix(".swift") && $0.contains("+") || $0 == "Device.swift" }
    var out: [String: String] = [:]
    for name in names {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      out[name] = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
        return code.replacing(#/"(\\.|[^"\\])*"/#, with: "\"\"")
      }.joined(separator: "\n")
    }
    return out
  }

  /// Which other files' functions each file calls: [caller: [callee file: names]].
  static func calls(_ sources: [String: String]) throws -> [String: [String: Set<String>]] {
    var declaredIn: [String: Set<String>] = [:]
    for (file, text) in sources {
      for m in text.matches(of: #/func\s+([A-Za-z_][A-Za-z0-9_]*)\s*[<(]/#) { declaredIn[String(m.1), default: []].insert(file) }
    }
    var out: [String: [String: Set<String>]] = [:]
    for (name, files) in declaredIn where files.count == 1 {
      let owner = files.first!
      let call = try Regex("(?:^|[^A-Za-z0-9_.])" + name + #"\s*\("#)
      for (file, text) in sources where file != owner {
        // A declaration elsewhere of the same name would have made it shared.
        if text.contains(call) { out[file, default: [:]][owner, default: []].insert(name) }
      }
    }
    return out
  }

  @Test func noTwoConcernsCallEachOther() throws {
    let sources = try Self.sources()
    #expect(sources.count > 12)
    #expect(Self.coordinator.isSubset(of: Set(sources.keys)))
    let calls = try Self.calls(sources)
    var loops: [String] = []
    for (a, callees) in calls where !Self.coordinator.contains(a) {
      for (b, names) in callees where !Self.coordinator.contains(b) && a < b {
        if let back = calls[b]?[a] { loops.append("\(a) → \(names.sorted()), \(b) → \(back.sorted())") }
      }
    }
    #expect(loops.isEmpty, "concerns that call each other:\n\(loops.sorted().joined(separator: "\n"))")
  }

  /// The check sees a call: a loop written on purpose is found.
  @Test func aLoopIsFound() throws {
    let sources = [
      "Device+A.swift": "extension Device {\n func one() { two() }\n}",
      "Device+B.swift": "extension Device {\n func two() {}\n func three() { one() }\n}",
    ]
    let calls = try Self.calls(sources)
    #expect(calls["Device+A.swift"]?["Device+B.swift"] == ["two"])
    #expect(calls["Device+B.swift"]?["Device+A.swift"] == ["one"])
  }
}
