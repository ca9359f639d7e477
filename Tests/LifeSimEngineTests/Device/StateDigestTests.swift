import Testing
@testable import LifeSimEngine

/// `StateHasher` gives the digest of the byte stream written to it, however
/// it was split, so the search's digest made as the fingerprint is written
/// equals the digest of `stateFingerprint()`'s bytes.
struct StateDigestTests {
  @Test(arguments: 0..<40)
  func theDigestDependsOnlyOnTheBytes(length: Int) {
    var generator = SeededGenerator(seed: UInt64(length) &+ 1)
    let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    let whole = StateDigest(bytes)
    // Split the same bytes into bytes, words and runs, at random places.
    for _ in 0..<20 {
      var h = StateHasher()
      var i = 0
      while i < bytes.count {
        switch generator.next() % 3 {
        case 0:
          h.append(byte: bytes[i])
          i += 1
        case 1 where i + 8 <= bytes.count:
          let word = bytes[i..<i + 8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
          h.append(word: Int64(bitPattern: word))
          i += 8
        default:
          let n = min(bytes.count - i, Int(generator.next() % 13))
          bytes[i..<i + n].withUnsafeBytes { h.append(bytes: $0) }
          i += n
        }
      }
      #expect(h.digest == whole)
    }
  }

  @Test func aByteMoreOrDifferentIsAnotherDigest() {
    #expect(StateDigest([]) != StateDigest([0]))
    #expect(StateDigest([0]) != StateDigest([0, 0]))
    #expect(StateDigest([1, 2, 3]) != StateDigest([1, 2, 4]))
    #expect(StateDigest(Array(repeating: 0, count: 8)) != StateDigest(Array(repeating: 0, count: 9)))
  }

  @Test func aDevicesHashedFingerprintIsTheDigestOfItsBytes() throws {
    let dev = try Device(profile: OSProfile(version: 12), seed: 3)
    let notes = try dev.install(AppConfig(bundle: "com.example.notes", footprintMB: 300))
    try dev.launch(notes)
    try dev.home()
    var h = StateHasher()
    dev.hashFingerprint(into: &h)
    #expect(h.digest == StateDigest(dev.stateFingerprint()))
    try dev.advance(by: .seconds(1))
    var later = StateHasher()
    dev.hashFingerprint(into: &later)
    #expect(later.digest == StateDigest(dev.stateFingerprint()))
  }
}
