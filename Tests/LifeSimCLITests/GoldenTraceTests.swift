import Foundation
import Testing

/// Traces kept byte for byte (`Tests/golden`): nine shipped scripts that
/// between them make every kind of record and every JSONL field (`device` and
/// `device_seq`, view and view-controller records, tasks and deadlines,
/// memory levels, watchdog kills, URLs), in JSONL and in text. The files were
/// written by the trace writer before it formatted records through a pointer
///, so they hold the new writer to the old one's bytes.
///
/// A change that alters a trace on purpose rewrites them:
/// `LIFESIM_UPDATE_GOLDEN=1 swift test --filter GoldenTraceTests`, and the
/// diff goes into the commit for review.
struct GoldenTraceTests {
  static let scripts = [
    "memory/device_models", "examples/background_upload", "background/audio", "examples/push_pop",
    "data_loss/save_on_background", "scenes/open_url", "tour", "view_controllers/seed003", "view_controllers/views",
  ]

  static let cases: [(script: String, format: String)] =
    scripts.flatMap { [($0, "jsonl"), ($0, "text")] }

  @Test(arguments: cases)
  func theTraceIsTheGoldenOne(script: String, format: String) throws {
    let name = script.replacingOccurrences(of: "/", with: "_") + (format == "jsonl" ? ".jsonl" : ".txt")
    let golden = repoRoot.appendingPathComponent("Tests/golden/" + name)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-golden-\(getpid())-\(name)")
    defer { try? FileManager.default.removeItem(at: out) }
    let r = try lifesim(["run", "Scripts/\(script).lua", "--format", format, "-o", out.path])
    #expect(r.status == 0, "\(r.stderr)")
    let made = try Data(contentsOf: out)
    if ProcessInfo.processInfo.environment["LIFESIM_UPDATE_GOLDEN"] == "1" {
      try made.write(to: golden)
      return
    }
    let kept = try Data(contentsOf: golden)
    #expect(made.count > 1_000)
    guard made != kept else { return }
    // Name the first line that differs, not a wall of bytes.
    let a = String(decoding: made, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let b = String(decoding: kept, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    Issue.record("""
      \(name) differs from the golden trace at line \(i + 1) (\(a.count) lines made, \(b.count) kept):
        made: \(i < a.count ? String(a[i]) : "(end)")
        kept: \(i < b.count ? String(b[i]) : "(end)")
      """)
  }
}
