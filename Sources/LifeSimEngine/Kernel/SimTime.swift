/// A point or span of virtual time, as a whole number of microseconds.
///
/// Virtual time is never a sum of Doubles (SPEC §1.6): scripts speak in seconds,
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
  public init?(seconds: Double) {
    guard seconds.isFinite, abs(seconds) <= 100 * 365 * 86_400 else { return nil }
    self.microseconds = Int64((seconds * 1_000_000).rounded())
  }

  public static let zero = SimTime(microseconds: 0)

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
  public var description: String {
    var out = ""
    append(to: &out)
    return out
  }

  /// Appends `description` to `out` without building it first (trace writers).
  public func append(to out: inout String) {
    if microseconds < 0 { out.append("-") }
    let m = microseconds.magnitude
    out.append(String(m / 1_000_000))
    out.append(".")
    var frac = m % 1_000_000
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (48, 48, 48, 48, 48, 48)
    withUnsafeMutableBytes(of: &digits) { buf in
      for i in stride(from: 5, through: 0, by: -1) {
        buf[i] = UInt8(48 + frac % 10)
        frac /= 10
      }
      out.append(String(decoding: buf, as: UTF8.self))
    }
  }
}
