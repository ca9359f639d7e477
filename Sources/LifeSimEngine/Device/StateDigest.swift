// The 128-bit hash a search keeps of each state's fingerprint, and the
// hasher that makes it as the fingerprint is written, without the bytes
// being gathered first.

/// Where a fingerprint is written: a byte array (`Device.stateFingerprint()`,
/// to read or compare), or a `StateHasher` (the search, which keeps only the
/// hash).
public protocol FingerprintSink {
  mutating func append(byte: UInt8)
  /// Eight bytes, little-endian.
  mutating func append(word: Int64)
  mutating func append(bytes: UnsafeRawBufferPointer)
}

extension FingerprintSink {
  /// Text, prefixed by its length in bytes, so that no two texts in a row
  /// read as another two.
  public mutating func append(text bytes: UnsafeRawBufferPointer) {
    append(word: Int64(bytes.count))
    append(bytes: bytes)
  }

  public mutating func append(text s: String) {
    var s = s
    s.withUTF8 { append(text: UnsafeRawBufferPointer($0)) }
  }
}

extension Array: FingerprintSink where Element == UInt8 {
  public mutating func append(byte: UInt8) { append(byte) }
  public mutating func append(word: Int64) { Swift.withUnsafeBytes(of: word.littleEndian) { append(contentsOf: $0) } }
  public mutating func append(bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
}

/// A state's fingerprint, hashed to 128 bits: a search keeps these, not the
/// fingerprints, as TLC keeps 64-bit fingerprints. Two different states
/// share one with a chance of about n²/2¹²⁹ among n states (10⁻²⁹ for a
/// million).
public struct StateDigest: Hashable, Sendable {
  public var a: UInt64
  public var b: UInt64

  /// The digest of `bytes`: the same as a `StateHasher` gives when the same
  /// bytes are written to it, however they are split.
  public init(_ bytes: [UInt8]) {
    var h = StateHasher()
    bytes.withUnsafeBytes { h.append(bytes: $0) }
    self = h.digest
  }

  init(a: UInt64, b: UInt64) {
    self.a = a
    self.b = b
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(a) }
}

/// Two multiply-rotate hashes of a byte stream, eight bytes at a time, with
/// fixed seeds: the same in every run. Bytes written one by one wait in
/// `pending` until they make a word, so the digest depends only on the
/// stream, not on how it was written.
public struct StateHasher: FingerprintSink {
  private var a: UInt64 = 0x9E37_79B9_7F4A_7C15
  private var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  /// The stream's last `count % 8` bytes, not yet mixed, in the low bytes.
  private var pending: UInt64 = 0
  private var count = 0

  public init() {}

  @inline(__always) private mutating func mix(_ w: UInt64) {
    a = (a ^ w) &* 0xFF51_AFD7_ED55_8CCD
    a = (a << 31) | (a >> 33)
    b = (b &+ w) &* 0xC4CE_B9FE_1A85_EC53
    b = (b << 29) | (b >> 35)
  }

  public mutating func append(byte: UInt8) {
    let k = count & 7
    pending |= UInt64(byte) << (8 * k)
    count += 1
    if k == 7 {
      mix(pending)
      pending = 0
    }
  }

  public mutating func append(word: Int64) {
    let w = UInt64(bitPattern: word)
    let k = count & 7
    count += 8
    if k == 0 {
      mix(w)
    } else {
      mix(pending | (w << (8 * k)))
      pending = w >> (64 - 8 * k)
    }
  }

  public mutating func append(bytes: UnsafeRawBufferPointer) {
    var i = 0
    while i < bytes.count, count & 7 != 0 {
      append(byte: bytes[i])
      i += 1
    }
    while i + 8 <= bytes.count {
      mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
      count += 8
      i += 8
    }
    while i < bytes.count {
      append(byte: bytes[i])
      i += 1
    }
  }

  /// The digest of what was written; the last partial word is taken as if
  /// padded with zeros, and the length is mixed in.
  public var digest: StateDigest {
    var h = self
    if count & 7 != 0 { h.mix(pending) }
    var a = h.a, b = h.b
    a ^= UInt64(count)
    b &+= UInt64(count)
    a ^= a >> 33; a = a &* 0xFF51_AFD7_ED55_8CCD; a ^= a >> 33
    b ^= b >> 29; b = b &* 0xC4CE_B9FE_1A85_EC53; b ^= b >> 32
    return StateDigest(a: a, b: b)
  }
}
