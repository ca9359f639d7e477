import Foundation
import Testing

/// `lifesim compare` across iOS 12, 15, 17 and 18 shows where prewarming and
/// `viewIsAppearing:` on children differ (Scripts/compare/modern.lua).
struct ModernCompareTests {
  @Test func prewarmAndChildrenDifferAcrossVersions() throws {
    let r = try lifesim(["compare", "Scripts/compare/modern.lua", "--handled",
                         "--ios", "12", "--ios", "15", "--ios", "17", "--ios", "18", "--width", "45"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.contains("iOS 12") == true && lines.first?.contains("iOS 18") == true)
    // iOS 12 does not prewarm: its launch is where the others' prewarm ran the launch methods.
    #expect(lines.contains { $0.hasPrefix("* ") && $0.components(separatedBy: " | ")[0].trimmingCharacters(in: .whitespaces).hasSuffix("action launch") })
    // iOS 15's child misses viewIsAppearing:; 17 and 18 deliver it.
    let child = lines.filter { $0.contains("-[Child viewIsAppearing:]") }
    #expect(!child.isEmpty)
    for line in child {
      let cells = line.dropFirst(2).components(separatedBy: " | ")
      #expect(line.hasPrefix("* ") && cells.count == 4)
      #expect(cells[1].trimmingCharacters(in: .whitespaces).isEmpty, "iOS 15: \(line)")
      #expect(cells[2].contains("Child") && cells[3].contains("Child"), "\(line)")
    }
  }

  @Test func theActivePrewarmVariableIsAnIOS15Thing() throws {
    let r = try lifesim(["compare", "Scripts/compare/modern.lua", "--all", "--ios", "15", "--ios", "17", "--width", "100"])
    #expect(r.status == 0, "\(r.stderr)")
    let logs = r.stdout.split(separator: "\n").filter { $0.contains("didFinishLaunchingWithOptions: ActivePrewarm=") }
    #expect(logs.contains { $0.contains("ActivePrewarm=1 ") && $0.hasPrefix("* ") && $0.contains(" s  log ") })
    #expect(logs.contains { $0.contains("ActivePrewarm=nil ") })
  }

  /// BGTaskScheduler (reference §3.5): iOS 12 has none and says so, 17 runs
  /// the refresh, 26 also the continued export.
  @Test func backgroundTasksDifferAcrossVersions() throws {
    let r = try lifesim(["compare", "Scripts/compare/background_tasks.lua", "--ios", "12", "--ios", "17", "--ios", "26", "--width", "60"])
    #expect(r.status == 0, "\(r.stderr)")
    // Three cells a line; an empty last cell leaves only the bar before it.
    let lines = r.stdout.split(separator: "\n").map { $0.dropFirst(2).split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
      .filter { $0.count == 3 }
    #expect(lines.contains { $0[0].contains("iOS 12: no BGTaskScheduler") && $0[1].trimmingCharacters(in: .whitespaces).isEmpty })
    let refresh = lines.filter { $0[1].contains("runs BGAppRefreshTask") }
    #expect(refresh.count == 1 && refresh[0][0].trimmingCharacters(in: .whitespaces).isEmpty && refresh[0][2].contains("runs BGAppRefreshTask"))
    let continued = lines.filter { $0[2].contains("runs BGContinuedProcessingTask") }
    #expect(continued.count == 1 && continued[0][1].trimmingCharacters(in: .whitespaces).isEmpty)
  }
}
