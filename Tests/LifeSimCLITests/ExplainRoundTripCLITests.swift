import Foundation
import Testing

/// The round trip over the shipped scripts: the trace of a script's first
/// device, written as text, is a log `lifesim explain` explains, and the
/// script it writes reproduces that log under `lifesim run`.
struct ExplainRoundTripCLITests {
  /// Scripts whose first device does not fit an explanation, and why.
  static let skipped: [String: String] = [
    "Scripts/app_delegate/return_to_foreground.lua": noTrace,
    "Scripts/app_delegate/silent_suspension.lua": noTrace,
    "Scripts/app_delegate/switch_to_other_app.lua": noTrace,
    "Scripts/app_delegate/switcher_same_app.lua": noTrace,
    "Scripts/compare/seed002.lua": noTrace,
    "Scripts/examples/background_upload.lua": noTrace,
    "Scripts/examples/push_pop.lua": noTrace,
    "Scripts/examples/save_on_background.lua": noTrace,
    "Scripts/examples/utf8_bom.lua": noTrace,
    "Scripts/examples/utf8_bom_helper.lua": noTrace,
    "Scripts/experiments/coldlaunch.lua": noTrace,
    "Scripts/experiments/savepolicy.lua": noTrace,
    "Scripts/explore/correct_app.lua": noTrace,
    "Scripts/explore/forgotten_task.lua": noTrace,
    "Scripts/explore/save_on_terminate.lua": noTrace,
    "Scripts/experiments/experiments_test.lua": noApp,
    "Scripts/memory/device_models.lua": noApp,
    "Scripts/policies/overrides.lua": noApp,
    "Scripts/scenes/profiles.lua": noApp,
    "Scripts/scenes/quirks.lua": noApp,
    "Scripts/background/protected_data.lua": apps,
    "Scripts/policies/builtin_orders.lua": apps,
    "Scripts/workload/workload.lua": apps,
    "Scripts/scenes/multi_window.lua": windows,
    "Scripts/tour.lua": windows,
    "Scripts/compare/modern.lua": noTrace,
    "Scripts/modern/side_by_side.lua": windows,
    "Scripts/modern/restoration.lua": restoration,
    "Scripts/background/busy_main_thread.lua": busy,
    "Scripts/background_tasks/scheduler.lua": noTrace,
    "Scripts/compare/background_tasks.lua": compared,
    "Scripts/experiments/feedscheduler.lua": noTrace,
    "Scripts/explore/refresh_expires.lua": noTrace,
  ]

  static let noTrace = "lifesim run prints no trace: its devices live inside lifesim.test or an experiment, or it makes none"
  static let compared = "its device's iOS version is lifesim compare's choice: run alone, it prints one device's trace without the version line this test reads"
  static let noApp = "its first device's trace has no app callbacks: nothing to explain"
  static let apps = "its first device runs several apps, whose lines interleave; explain simulates one app"
  static let windows = "its app opens a second window (dev:open_scene), a step explain does not take"
  static let busy = "its apps are killed, and told late, while a handler works (reference §3.8), steps explain does not take"
  static let restoration = "its app implements stateRestorationActivityForScene:, which the app explain simulates does not"

  static var scripts: [String] {
    let root = repoRoot.appendingPathComponent("Scripts")
    let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
    return files.filter { $0.hasSuffix(".lua") && !$0.hasPrefix("bad/") && !$0.hasPrefix("lib/") }.sorted().map { "Scripts/" + $0 }
  }

  /// The trace of the first device `lifesim run` prints, and its iOS version.
  static func firstDevice(_ stdout: String) -> (trace: String, ios: String)? {
    var lines: [Substring] = []
    var ios: String?
    for line in stdout.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("# device ") {
        if ios != nil { break }
        guard let r = line.range(of: "iOS ") else { return nil }
        ios = String(line[r.upperBound...].prefix { $0.isNumber })
        continue
      }
      if ios != nil { lines.append(line) }
    }
    return ios.map { (lines.joined(separator: "\n") + "\n", $0) }
  }

  @Test func everyShippedScriptIsExplainedOrSkippedWithItsReason() throws {
    let scripts = Self.scripts
    #expect(scripts.count > 30)
    for name in Self.skipped.keys { #expect(scripts.contains(name), "\(name) is listed as skipped but is not under Scripts/") }
    var explained = 0
    for script in scripts where Self.skipped[script] == nil {
      let run = try lifesim(["run", script])
      guard let (trace, ios) = Self.firstDevice(run.stdout) else {
        Issue.record("\(script): no device in its trace; list it in `skipped` with the reason")
        continue
      }
      let log = try scriptFile("roundtrip.log", trace)
      let out = try scriptFile("roundtrip.lua", "")
      let r = try lifesim(["explain", log, "--ios", ios, "--alternatives", "0", "-o", out])
      #expect(r.status == 0, "\(script): \(r.stdout)\(r.stderr)")
      guard r.status == 0 else { continue }
      let replay = try lifesim(["run", out])
      #expect(replay.status == 0, "\(script): the explanation does not reproduce the log: \(replay.stderr)")
      explained += 1
    }
    #expect(explained + Self.skipped.count == scripts.count)
  }

  func scriptFile(_ name: String, _ text: String) throws -> String { try script("explain-" + name, text) }
}
