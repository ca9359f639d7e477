/// A budget of bytes several devices share: what their traces keep (records,
/// their text, the names), counted together against one limit, so that a
/// script cannot multiply the limit by making more devices.
///
/// The count sits behind a pointer: a record adds to it with a plain add, no
/// exclusivity check and no reference counting (`Trace` reads the pointer
/// from its own copy).
public final class MemoryBudget: @unchecked Sendable {
  /// The most bytes the devices may keep.
  public let limit: Int
  let counter: UnsafeMutablePointer<Int>

  public init(limit: Int) {
    self.limit = limit
    counter = .allocate(capacity: 1)
    counter.initialize(to: 0)
  }

  deinit { counter.deallocate() }

  /// The bytes kept now.
  public var used: Int { counter.pointee }

  /// Whether the devices keep more than the limit.
  public var isExceeded: Bool { counter.pointee > limit }

  /// Starts the count again (a new run of an experiment, whose devices are
  /// done with).
  public func reset() { counter.pointee = 0 }

  func add(_ n: Int) { counter.pointee &+= n }
}
