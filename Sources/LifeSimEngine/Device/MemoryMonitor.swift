/// The device's memory (reference §0 "Jetsam", §4): its RAM and per-process
/// limit, the pressure level last recorded, and whether a check is waiting
/// for the running code to return. What a process uses is in `ProcessTable`.
public struct MemoryMonitor: Sendable {
  /// Physical memory in MB: the model's, the script's `memory_mb`, or nil
  /// (no memory model: no pressure warnings and no jetsam).
  public let ramMB: Int?
  /// The per-process limit in MB: the model's, or 50% of RAM (reference §0).
  public let perProcessLimitMB: Int?
  /// The pressure level last recorded.
  public internal(set) var level = MemoryLevel.normal
  /// A check is scheduled at the current instant.
  var checkScheduled = false

  public init(ramMB: Int?, model: DeviceModel?) {
    self.ramMB = ramMB
    self.perProcessLimitMB = model?.perProcessLimitMB ?? ramMB.map(DeviceModel.defaultLimitMB(ramMB:))
  }

  /// The pressure level for `used` MB under the policy's thresholds: critical
  /// above `jetsamAt` of RAM, warning from `memoryWarningAt`.
  public func level(used: Double, policy: Policy) -> MemoryLevel {
    guard let ram = ramMB.map(Double.init) else { return .normal }
    if used > policy.jetsamAt * ram { return .critical }
    if used >= policy.memoryWarningAt * ram { return .warning }
    return .normal
  }

  /// A process of `mb` is over its own limit and dies at once, even in the foreground (§0).
  public func overLimit(_ mb: Double) -> Bool {
    guard let limit = perProcessLimitMB else { return false }
    return mb > Double(limit)
  }

  /// Memory changed: true when a check must be scheduled (there is a memory
  /// model and none is waiting yet).
  mutating func requestCheck() -> Bool {
    guard ramMB != nil, !checkScheduled else { return false }
    checkScheduled = true
    return true
  }
}
