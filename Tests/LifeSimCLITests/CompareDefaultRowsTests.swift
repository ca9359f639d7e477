import Foundation
import Testing

/// `lifesim compare` shows by default what differs most between versions:
/// actions, callbacks, expirations, watchdog and jetsam kills, data loss and
/// print lines, each version with a time column; states, notifications and
/// snapshots only with --all.
struct CompareDefaultRowsTests {
  static let scenario = """
    local dev = lifesim.device{ memory_mb = 2048 }
    local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 600 }
    local mail = dev:install{ bundle = "com.example.mail", footprint_mb = 500 }
    local game = dev:install{ bundle = "com.example.game", footprint_mb = 300 }
    local slow = dev:install{ bundle = "com.example.slow" }
    notes:observe("UIApplicationDidEnterBackgroundNotification", function(ctx)
      print("uploading")
      ctx:dirty(2)
      ctx:begin_background_task("upload", function(t) t:finish() end)
    end)
    game:observe("UIApplicationDidBecomeActiveNotification", function(ctx) ctx:allocate(600) end)
    slow:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(25) return true end)
    dev:advance(5.5)
    dev:launch(notes)
    dev:home()
    dev:advance(200)
    dev:launch(mail)
    dev:home()
    dev:launch(game)
    dev:home()
    dev:launch(slow)
    """

  @Test func theRowsThatDifferShowByDefaultWithTheirTimes() throws {
    let file = try script("compare_defaults.lua", Self.scenario)
    let r = try lifesim(["compare", file, "--ios", "12", "--ios", "17"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    // A time column per version.
    let header = try #require(lines.first)
    #expect(header.components(separatedBy: "time").count - 1 == 2, "\(header)")
    #expect(header.contains("iOS 12") && header.contains("iOS 17"))
    func row(_ text: String) -> String? { lines.first { $0.contains(text) } }
    // The expiration, at each version's own time: a row of the same text at different times is marked ~.
    let expire = try #require(row("expire upload"), "\(r.stdout)")
    #expect(expire.hasPrefix("~ ") || expire.hasPrefix("* "), "\(expire)")
    #expect(expire.components(separatedBy: "expire upload").count - 1 == 2, "on both sides: \(expire)")
    // print lines, kills of both kinds and the data loss.
    #expect(row("log uploading") != nil, "\(r.stdout)")
    #expect(row("kill reason=watchdog") != nil, "\(r.stdout)")
    #expect(lines.contains { $0.contains("kill reason=") && ($0.contains("jetsam") || $0.contains("vm-pageshortage")) }, "\(r.stdout)")
    #expect(row("data_loss") != nil, "\(r.stdout)")
    // The time column: the launch at 5.5 s on both sides.
    let launch = try #require(row("action launch"))
    #expect(launch.hasPrefix("  ") && launch.components(separatedBy: "5.5 s").count - 1 == 2, "\(launch)")
    // States, notifications and snapshots stay behind --all.
    #expect(!r.stdout.contains(" state ") && !r.stdout.contains("notification ") && !r.stdout.contains("snapshot"))
    let all = try lifesim(["compare", file, "--ios", "12", "--ios", "17", "--all"])
    #expect(all.status == 0)
    #expect(all.stdout.contains(" state ") && all.stdout.contains("notification "), "\(all.stdout)")
  }

  /// --width cuts an event's text; its time is kept whole beside it.
  @Test func widthCutsTheTextNotTheTime() throws {
    let file = try script("compare_width.lua", Self.scenario)
    let r = try lifesim(["compare", file, "--ios", "12", "--ios", "17", "--width", "14"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("205.5 s"), "\(r.stdout)")
    for line in r.stdout.split(separator: "\n").dropFirst() {
      // An empty last cell leaves no space after its bar.
      for cell in line.dropFirst(2).components(separatedBy: " |") {
        // "205.5 s  expire upload", padded; an empty cell has no time.
        let trimmed = cell.trimmingCharacters(in: .whitespaces)
        guard let r = trimmed.range(of: " s  ") else { continue }
        #expect(trimmed[r.upperBound...].count <= 14, "\(line)")
      }
    }
  }
}
