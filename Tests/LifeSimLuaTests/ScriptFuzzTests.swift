import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimLua

/// A seeded mutator over script text. It runs in every `swift test` and replays
/// exactly; the coverage-guided libFuzzer target over the same inputs is `Fuzz/`.
/// Every shipped script is a seed; mutants flip bytes, splice scripts, cut them
/// short, insert Lua fragments and garbage. Each must end normally or with a
/// `LuaFailure`, never a crash or another error.
///
/// `LIFESIM_FUZZ_RUNS=N` runs N mutants instead of the default (the long mode).
struct ScriptFuzzTests {
  static var runs: Int {
    ProcessInfo.processInfo.environment["LIFESIM_FUZZ_RUNS"].flatMap(Int.init).map { $0 / 10 } ?? 300
  }

  /// The repository's Scripts folder, found from this file.
  static var corpus: [[UInt8]] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Scripts")
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".lua") }.sorted() ?? []
    return files.compactMap { try? readFileBytes(root.appendingPathComponent($0).path) }
  }

  static let fragments: [String] = [
    "end", "(", ")", "{", "}", "[[", "]]", "--[[", "\"", "'", "..", "...", "local", "function",
    "while true do end", "return", "nil", "dev:run()", "dev:advance(1e9)", "coroutine.yield()",
    "error({})", "error(nil)", "setmetatable(dev, {})", "string.rep('x', 1e9)", "collectgarbage('step')",
    "app:push{class='X'}", "app:pop()", "dev:home()", "ctx:work(1e6)", "goto x", "::x::", "\u{0}", "\u{FF}",
  ]

  @Test func mutatedScriptsNeverCrash() throws {
    let corpus = Self.corpus
    #expect(corpus.count > 20, "the Scripts corpus is missing")
    var rng = SeededGenerator(seed: 20261121)
    var outcomes: [String: Int] = [:]
    for i in 0..<Self.runs {
      let mutant = mutate(corpus, &rng)
      var options = RuntimeOptions()
      options.output = { _ in }
      options.maxInstructions = 5_000_000
      options.maxHandlerInstructions = 1_000_000
      options.memoryLimit = 64 << 20
      options.maxTime = 86_400
      options.retainDevices = false
      let runtime = try LuaRuntime(options: options)
      do {
        try runtime.run(bytes: mutant, chunkName: "=mutant\(i)")
        outcomes["ok", default: 0] += 1
      } catch let f as LuaFailure {
        outcomes[f.isExpectation ? "expectation" : "error", default: 0] += 1
        #expect(!f.message.isEmpty, "mutant \(i): an empty message")
      } catch {
        Issue.record("mutant \(i): \(type(of: error)) is not a LuaFailure: \(error)")
      }
    }
    // The mutator must reach both outcomes, or it tests nothing.
    #expect((outcomes["ok"] ?? 0) > 0 && (outcomes["error"] ?? 0) > 0, "\(outcomes)")
  }

  private func mutate(_ corpus: [[UInt8]], _ rng: inout SeededGenerator) -> [UInt8] {
    var bytes = corpus[Int(rng.next() % UInt64(corpus.count))]
    for _ in 0..<(1 + rng.next() % 4) {
      let at = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
      switch rng.next() % 6 {
      case 0: if !bytes.isEmpty { bytes[at] = UInt8(truncatingIfNeeded: rng.next()) }
      case 1: bytes = Array(bytes.prefix(at))
      case 2:
        let other = corpus[Int(rng.next() % UInt64(corpus.count))]
        let from = other.isEmpty ? 0 : Int(rng.next() % UInt64(other.count))
        bytes = Array(bytes.prefix(at)) + other[from...]
      case 3:
        let f = Self.fragments[Int(rng.next() % UInt64(Self.fragments.count))]
        bytes.insert(contentsOf: Array(" \(f) ".utf8), at: at)
      case 4:
        let garbage = (0..<(1 + rng.next() % 16)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes.insert(contentsOf: garbage, at: at)
      default:
        if bytes.count > 1 { bytes.remove(at: at) }
      }
    }
    return bytes
  }
}
