/// What one step of a part's rules asks the device to do, in order: up to
/// four effects, held inline.
///
/// A part's `reduce` changes the part's own state and returns these; the
/// device applies them (`Device+Effects.swift`). Inline, not an array: a
/// step runs on every action and every process event, and an array would
/// allocate each time.
///
///     var effects = Effects<ScreenEffect>(.sendToBackground(app))
///     effects.append(.leaveScreen(app))
///     for effect in effects { /* apply it */ }
public struct Effects<Effect: Equatable & Sendable>: Equatable, Sendable, Sequence, ExpressibleByArrayLiteral {
  /// The most effects one step may return.
  public static var capacity: Int { 4 }
  private var e0, e1, e2, e3: Effect?
  /// How many effects there are.
  public private(set) var count = 0

  public init() {}

  /// For tests and examples: a literal builds an array on the heap first,
  /// which the rules avoid by naming their effects with `Effects(a, b, …)`.
  public init(arrayLiteral elements: Effect...) {
    for e in elements { append(e) }
  }

  // One initializer per count, so that a rule's effects never pass through
  // an array (a literal's array is allocated and freed on every step).
  public init(_ a: Effect) { e0 = a; count = 1 }
  public init(_ a: Effect, _ b: Effect) { e0 = a; e1 = b; count = 2 }
  public init(_ a: Effect, _ b: Effect, _ c: Effect) { e0 = a; e1 = b; e2 = c; count = 3 }
  public init(_ a: Effect, _ b: Effect, _ c: Effect, _ d: Effect) { e0 = a; e1 = b; e2 = c; e3 = d; count = 4 }

  public var isEmpty: Bool { count == 0 }

  /// Adds an effect after the others.
  /// - Precondition: fewer than `capacity` effects so far: a rule that needs
  ///   more is one step too many, and should return a follow-up instead.
  public mutating func append(_ effect: Effect) {
    switch count {
    case 0: e0 = effect
    case 1: e1 = effect
    case 2: e2 = effect
    case 3: e3 = effect
    default: preconditionFailure("more than \(Effects.capacity) effects in one step")
    }
    count += 1
  }

  /// The effect at `i` (0 ..< count).
  public subscript(i: Int) -> Effect {
    precondition(i >= 0 && i < count, "effect \(i) of \(count)")
    switch i {
    case 0: return e0!
    case 1: return e1!
    case 2: return e2!
    default: return e3!
    }
  }

  /// Hands out the effects by shifting them down a slot: no index to
  /// switch on and no unwrap per effect (a step's effects are filled from
  /// the first slot, so the first empty one ends them).
  public struct Iterator: IteratorProtocol {
    var e0, e1, e2, e3: Effect?
    public mutating func next() -> Effect? {
      let e = e0
      e0 = e1; e1 = e2; e2 = e3; e3 = nil
      return e
    }
  }

  public func makeIterator() -> Iterator { Iterator(e0: e0, e1: e1, e2: e2, e3: e3) }

  public var underestimatedCount: Int { count }
}
