import Testing
@testable import LifeSimEngine

/// The fingerprint holds what jetsam's order of last use will read next:
/// the order with its ties, and whether a last use is the current instant.
struct FingerprintRecencyTests {
  private func twoApps() throws -> (Device, AppID, AppID) {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let a = try dev.install(AppConfig(bundle: "com.example.a"))
    let b = try dev.install(AppConfig(bundle: "com.example.b"))
    try dev.advance(by: .seconds(10))
    return (dev, a, b)
  }

  @Test func aLastUseNowDiffersFromAnEarlierOne() throws {
    let (dev, a, _) = try twoApps()
    dev[a].lastUsed = dev.now
    let now = dev.stateFingerprint()
    dev[a].lastUsed = dev.now - .seconds(1)
    #expect(dev.stateFingerprint() != now, "the next use at this instant ties only with the first")
  }

  @Test func tiedLastUsesDifferFromOrderedOnes() throws {
    let (dev, a, b) = try twoApps()
    dev[a].lastUsed = .seconds(3)
    dev[b].lastUsed = .seconds(3)
    let tied = dev.stateFingerprint()
    dev[b].lastUsed = .seconds(4)
    let ordered = dev.stateFingerprint()
    #expect(tied != ordered, "the LRU order breaks a tie by band, not by install order")
    dev[a].lastUsed = .seconds(1)
    dev[b].lastUsed = .seconds(2)
    #expect(dev.stateFingerprint() == ordered, "only the order counts, not the instants")
  }
}
