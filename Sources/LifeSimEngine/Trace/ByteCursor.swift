// Formatting a record through a pointer. `Array.append(contentsOf:)` checks
// uniqueness and capacity and calls `memmove` for every piece, which made the
// JSONL writer spend most of its time appending a handful of bytes at a time.
// `TraceWriter` writes a record
// into room sized for it beforehand and appends it to the output at once.

/// Writes bytes through a pointer into room its owner made beforehand. Each
/// write checks the end (a compare, no call): a wrong size stops the program
/// instead of writing past the room.
struct ByteCursor {
  private(set) var p: UnsafeMutablePointer<UInt8>
  private let end: UnsafeMutablePointer<UInt8>

  init(_ p: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
    self.p = p
    self.end = end
  }

  @inline(__always)
  private func room(_ n: Int) {
    precondition(end - p >= n, "a trace record outgrew the room made for it")
  }

  @inline(__always)
  mutating func byte(_ b: UInt8) {
    room(1)
    p.pointee = b
    p += 1
  }

  @inline(__always)
  mutating func bytes(_ b: UnsafeBufferPointer<UInt8>) {
    guard let from = b.baseAddress else { return }
    room(b.count)
    p.initialize(from: from, count: b.count)
    p += b.count
  }

  /// A literal's bytes.
  @inline(__always)
  mutating func literal(_ s: StaticString) {
    room(s.utf8CodeUnitCount)
    p.initialize(from: s.utf8Start, count: s.utf8CodeUnitCount)
    p += s.utf8CodeUnitCount
  }

  /// A string's UTF-8 bytes, unescaped.
  @inline(__always)
  mutating func text(_ s: String) {
    // In place when the string is contiguous, as native strings are: no copy,
    // no reference counting.
    if s.utf8.withContiguousStorageIfAvailable({ bytes($0) }) == nil {
      var s = s
      s.withUTF8 { bytes($0) }
    }
  }

  /// `s` as a JSON string literal, quotes included: at most 6 bytes a byte of `s`, plus 2.
  mutating func jsonString(_ s: String) {
    if s.utf8.withContiguousStorageIfAvailable({ jsonString(utf8: $0) }) == nil {
      var s = s
      s.withUTF8 { jsonString(utf8: $0) }
    }
  }

  private mutating func jsonString(utf8 u: UnsafeBufferPointer<UInt8>) {
    byte(0x22)
    // Most strings (bundle ids, class names) need no escape: copied in one
    // pass up to the first byte that does, if any, eight bytes at a time
    // while a whole word is clean.
    let n = u.count
    room(n)
    var i = 0
    if let from = u.baseAddress {
      let source = UnsafeRawPointer(from), target = UnsafeMutableRawPointer(p)
      while i + 8 <= n {
        let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        if Self.needsEscape(word) { break }
        target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
        i += 8
      }
      while i < n {
        let b = from[i]
        if b < 0x20 || b == 0x22 || b == 0x5C { break }
        p[i] = b
        i += 1
      }
    }
    p += i
    if i < n {
      let hex: StaticString = "0123456789abcdef"
      for b in u[i...] {
        switch b {
        case 0x22: literal("\\\"")
        case 0x5C: literal("\\\\")
        case 0x0A: literal("\\n")
        case 0x0D: literal("\\r")
        case 0x09: literal("\\t")
        case _ where b < 0x20:
          literal("\\u00")
          byte(hex.utf8Start[Int(b >> 4)])
          byte(hex.utf8Start[Int(b & 0xF)])
        default: byte(b)
        }
      }
    }
    byte(0x22)
  }

  /// Whether any byte of `w` needs an escape in a JSON string (below 0x20,
  /// a quote or a backslash). Each test is the classic "has a byte less than
  /// n" on the word, or on the word XORed with the byte sought ("has a zero
  /// byte"): exact as a yes or no, whatever the other bytes.
  @inline(__always)
  static func needsEscape(_ w: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
    let control = (w &- ones &* 0x20) & ~w & highs
    let q = w ^ (ones &* 0x22), quote = (q &- ones) & ~q & highs
    let b = w ^ (ones &* 0x5C), backslash = (b &- ones) & ~b & highs
    return control | quote | backslash != 0
  }

  /// An integer in decimal: at most 20 bytes.
  mutating func decimal(_ n: Int64) {
    if n < 0 { byte(0x2D) }
    var m = n.magnitude
    var digits = 1, power: UInt64 = 10
    while digits < 20 && m >= power {
      digits += 1
      power = power &* 10
    }
    room(digits)
    // Two digits at a time, from the right.
    var q = p + digits
    while m >= 100 {
      q -= 2
      pair(Int(m % 100), at: q)
      m /= 100
    }
    if m >= 10 {
      q -= 2
      pair(Int(m), at: q)
    } else {
      q -= 1
      q[0] = 48 + UInt8(m)
    }
    p += digits
  }

  /// Writes `n` (0–99) as two digits at `q`.
  @inline(__always)
  private func pair(_ n: Int, at q: UnsafeMutablePointer<UInt8>) {
    let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    q[0] = pairs.utf8Start[2 * n]
    q[1] = pairs.utf8Start[2 * n + 1]
  }

  /// `time.description`: seconds with six decimals, at most 21 bytes.
  mutating func time(_ t: SimTime) {
    if t.microseconds < 0 { byte(0x2D) }
    let m = t.microseconds.magnitude
    decimal(Int64(m / 1_000_000))
    room(7)
    p[0] = 0x2E
    let frac = Int(m % 1_000_000)
    pair(frac / 10_000, at: p + 1)
    pair(frac / 100 % 100, at: p + 3)
    pair(frac % 100, at: p + 5)
    p += 7
  }

  /// A number as `formatNumber` writes it: at most 32 bytes.
  mutating func number(_ x: Double) {
    if printsWhole(x) { decimal(Int64(x)) } else { text(String(x)) }
  }

  /// `key` (with its colon) and the number, when there is one.
  @inline(__always)
  mutating func number(_ key: StaticString, _ x: Double?) {
    guard let x else { return }
    literal(key)
    number(x)
  }
}

/// The JSONL fields whose values are names the engine fixes (a record's kind,
/// a selector, a state, …) as ready-made bytes, `,"key":"value"` each: a record
/// copies them instead of looking up a `String` and appending it in pieces.
/// Made once and shared; never changed after.
final class JSONFragments: @unchecked Sendable {
  static let shared = JSONFragments()

  /// Where each group of fragments starts in `offsets`.
  enum Group: Int {
    case kind, callback, notification, appFrom, appTo, sceneFrom, sceneTo, action, reason, level
  }

  private let bytes: UnsafeMutablePointer<UInt8>
  /// Fragment `i` is `bytes[offsets[i] ..< offsets[i + 1]]`.
  private let offsets: UnsafeMutablePointer<Int32>
  private let groupStart: [Int]

  private init() {
    var all: [UInt8] = [], offsets: [Int32] = [0], starts: [Int] = []
    func group(_ key: String, _ values: [String]) {
      starts.append(offsets.count - 1)
      for v in values {
        all.append(contentsOf: Array(",\"\(key)\":".utf8))
        all.append(jsonString: v)
        offsets.append(Int32(all.count))
      }
    }
    group("kind", RecordKind.allCases.map(\.description))
    group("callback", Callback.allCases.map(\.selector))
    // `callback` is the name's old place, kept for readers of format 1.
    starts.append(offsets.count - 1)
    for n in AppNotification.allCases {
      all.append(contentsOf: Array(",\"callback\":".utf8))
      all.append(jsonString: n.name)
      all.append(contentsOf: Array(",\"notification\":".utf8))
      all.append(jsonString: n.name)
      offsets.append(Int32(all.count))
    }
    group("from", AppState.allCases.map(\.description))
    group("to", AppState.allCases.map(\.description))
    group("from", SceneState.allCases.map(\.description))
    group("to", SceneState.allCases.map(\.description))
    group("action", DeviceAction.allCases.map(\.description))
    group("reason", KillReason.allCases.map(\.description))
    group("level", MemoryLevel.allCases.map(\.description))
    self.bytes = .allocate(capacity: all.count)
    self.bytes.initialize(from: all, count: all.count)
    self.offsets = .allocate(capacity: offsets.count)
    self.offsets.initialize(from: offsets, count: offsets.count)
    self.groupStart = starts
  }

  deinit {
    bytes.deallocate()
    offsets.deallocate()
  }

  /// The fragment of value `raw` in `group`.
  @inline(__always)
  func fragment(_ group: Group, _ raw: UInt8) -> UnsafeBufferPointer<UInt8> {
    let i = groupStart[group.rawValue] + Int(raw)
    let start = Int(offsets[i])
    return UnsafeBufferPointer(start: bytes + start, count: Int(offsets[i + 1]) - start)
  }
}
