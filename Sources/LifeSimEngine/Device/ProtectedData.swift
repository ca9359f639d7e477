/// Data protection (reference §0 "Protected data"): with a passcode, files
/// become unavailable some time after a lock, and available again on unlock.
/// The device delivers the two callbacks; this part says when.
public struct ProtectedData: Sendable {
  /// The device has a passcode, so protected data locks with it.
  public var passcode = false
  public private(set) var available = true
  /// Voids a pending lock event when the device was unlocked meanwhile.
  private(set) var epoch: UInt32 = 0

  public init() {}

  /// The device locks: the epoch the delayed lock event must carry, or nil
  /// when there is no passcode and nothing will lock.
  mutating func deviceLocked() -> UInt32? {
    epoch &+= 1
    return passcode ? epoch : nil
  }

  /// The delayed lock event of `epoch` came due: true when the data becomes
  /// unavailable now (the device is still locked since that lock).
  mutating func lockEventFired(epoch e: UInt32, deviceLocked: Bool) -> Bool {
    guard e == epoch, deviceLocked, available else { return false }
    available = false
    return true
  }

  /// The device unlocks: true when the data was unavailable and comes back.
  mutating func deviceUnlocked() -> Bool {
    epoch &+= 1
    guard !available else { return false }
    available = true
    return true
  }
}
