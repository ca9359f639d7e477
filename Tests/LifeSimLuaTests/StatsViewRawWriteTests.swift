import Testing
import LifeSimEngine
import LifeSimTestSupport
@testable import LifeSimLua

/// In the sandbox, a read of `dev.stats` hands the cached view out again
/// without looking at it: every write to a view must tell the cache first,
/// the raw ones too. With --unsafe (no such rawset) the cache looks.
struct StatsViewRawWriteTests {
  private let body = """
    local dev = lifesim.device{ ios = 17 }
    local app = dev:install{ bundle = "com.example.a" }
    dev:launch(app)
    local s = dev.stats
    rawset(s, "opens", 40)
    assert(s.opens == 40 and s.cold_opens == 1)
    assert(dev.stats.opens == 1, "the view written to was handed out again")
    local k = dev.stats.kills
    rawset(k, "user", 9)
    assert(k.user == 9 and dev.stats.kills.user == 0, "the kills view written to was handed out again")
    local n = 0
    for _ in pairs(s) do n = n + 1 end
    assert(n == 8, "fields: " .. n)
    local ok, err = pcall(rawset, dev.stats, nil, 1)
    assert(not ok and tostring(err):find("index is nil", 1, true), tostring(err))
    """

  @Test func aRawWriteIsNotHandedOutAgain() throws {
    let (_, out, f) = try runScript(body)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out.isEmpty, "\(out)")
  }

  @Test func aRawWriteIsNotHandedOutAgainUnsafe() throws {
    let (_, out, f) = try runScript(body) { $0.unsafe = true }
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out.isEmpty, "\(out)")
  }
}
