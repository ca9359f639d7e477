/// A point or span of virtual time, as a whole number of microseconds.
///
/// Virtual time is never a sum of Doubles: scripts speak in seconds,
/// and the bridge converts once, at the boundary, with `SimTime(seconds:)`.
///
///     let t = SimTime(seconds: 2.5)!   // 2_500_000 µs
///     print(t)                          // 2.500000
public struct SimTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The count of microseconds.
  public var microseconds: Int64

  public init(microseconds: Int64) { self.microseconds = microseconds }

  /// Converts seconds to microseconds, rounding to the nearest microsecond.
  ///
  /// Returns nil for NaN, infinities, and values beyond ±100 years, so that a
  /// script's arithmetic mistake is reported instead of wrapping around.
  /// The largest number of seconds `init(seconds:)` takes, either way: 100 years.
  public static let maxSpanSeconds = 100 * 365 * 86_400

  public init?(seconds: Double) {
    guard seconds.isFinite, abs(seconds) <= Double(Self.maxSpanSeconds) else { return nil }
    self.microseconds = Int64((seconds * 1_000_000).rounded())
  }

  public static let zero = SimTime(microseconds: 0)

  /// The latest time a device's clock may reach, about 146,000 years: half of
  /// what 64 bits hold, so that any span the engine adds to a time within the
  /// range (at most 100 years, as `init(seconds:)` allows) cannot wrap around.
  public static let clockEnd = SimTime(microseconds: Int64.max / 2)

  public static func seconds(_ s: Int64) -> SimTime { SimTime(microseconds: s * 1_000_000) }
  public static func < (a: SimTime, b: SimTime) -> Bool { a.microseconds < b.microseconds }
  public static func + (a: SimTime, b: SimTime) -> SimTime {
    SimTime(microseconds: a.microseconds &+ b.microseconds)
  }
  public static func - (a: SimTime, b: SimTime) -> SimTime {
    SimTime(microseconds: a.microseconds &- b.microseconds)
  }

  /// The time in seconds, for Lua and for statistics; never fed back into the clock.
  public var seconds: Double { Double(microseconds) / 1_000_000 }

  /// Seconds with exactly six decimals, built from the integer (no rounding drift).
  /// The seconds with no trailing zeros ("4", "2.5"), for sentences.
  public var shortDescription: String {
    var d = description
    guard d.contains(".") else { return d }
    while d.hasSuffix("0") { d.removeLast() }
    if d.hasSuffix(".") { d.removeLast() }
    return d
  }

  public var description: String {
    var out = ""
    append(to: &out)
    return out
  }

  /// Appends `description` to `out` (the digits come from the byte version
  /// that trace formatters use, `ByteCursor.time`).
  public func append(to out: inout String) {
    var bytes: [UInt8] = []
    append(to: &bytes)
    out += String(decoding: bytes, as: UTF8.self)
  }
}
