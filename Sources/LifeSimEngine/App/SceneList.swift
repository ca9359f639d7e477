/// An app's scene sessions in order of creation, with what the rules ask of
/// them at every scene change kept up to date as they change: how many are in
/// each state (what the app's state follows, §1.3, and whether a notification
/// is posted), which are on screen, and which was brought forward last. A
/// script may open as many windows as it likes; each change then costs the
/// same with two sessions or two hundred thousand.
///
/// Invariants (`violations()`): numbers rise strictly (sessions are appended
/// with a new number and never reordered), and every figure kept equals what a
/// walk over the sessions gives.
public struct SceneList: RandomAccessCollection, Sendable, Equatable {
  private var items: [Scene] = []
  /// Sessions in each `SceneState`, by raw value.
  private var counts: (Int, Int, Int, Int) = (0, 0, 0, 0)
  /// The numbers of the sessions on screen (foreground), rising: a few at most.
  public private(set) var onScreen: [Int32] = []
  /// The session brought forward last (the highest `lastForward`, the first
  /// of equals): what a tap on the icon shows.
  public private(set) var focus: Int32?

  public init() {}

  public var startIndex: Int { 0 }
  public var endIndex: Int { items.count }
  // Concrete, not Collection's generic defaults: those take the list by
  // copy, and `self[id].scenes.isEmpty` should read one word in place.
  public var isEmpty: Bool { items.isEmpty }
  public var count: Int { items.count }

  public subscript(i: Int) -> Scene {
    get { items[i] }
    _modify {
      let state = items[i].state, forward = items[i].lastForward
      yield &items[i]
      if items[i].state != state { moved(items[i].number, from: state, to: items[i].state) }
      if items[i].lastForward != forward { refocus(after: items[i]) }
    }
  }

  public static func == (a: SceneList, b: SceneList) -> Bool { a.items == b.items }

  /// The sessions in place, without a copy (the machine registry walks them).
  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Scene>) throws -> R) rethrows -> R {
    try items.withUnsafeBufferPointer(body)
  }

  /// The index of session `number`, if it is open (numbers rise: a binary search).
  @inline(__always)
  public func index(of number: Int32) -> Int? {
    var low = 0, high = items.count
    while low < high {
      let mid = (low + high) / 2
      if items[mid].number < number { low = mid + 1 } else { high = mid }
    }
    return low < items.count && items[low].number == number ? low : nil
  }

  /// The state of session `number`, if it is open: read in place, not
  /// through a copy of the session.
  @inline(__always)
  public func state(of number: Int32) -> SceneState? {
    index(of: number).map { items[$0].state }
  }

  /// The state of the session at `i`, read in place.
  @inline(__always)
  public func state(at i: Int) -> SceneState { items[i].state }

  /// The session at `i` is the one brought forward last: `count` is above
  /// every session's, so it is the focus now, with no search (the
  /// subscript's `refocus` cannot tell that the value rose).
  mutating func broughtForward(at i: Int, count: Int) {
    assert(focus.flatMap(index(of:)).map { items[$0].lastForward <= count } ?? true, "brought forward out of order")
    items[i].lastForward = count
    focus = items[i].number
  }

  /// Sets the state of the session at `i` and the figures it moves (the
  /// subscript's generic check of every field costs more than the change).
  /// - Returns: the state it had.
  @inline(__always) @discardableResult
  public mutating func setState(at i: Int, _ to: SceneState) -> SceneState {
    let from = items[i].state
    guard from != to else { return from }
    items[i].state = to
    moved(items[i].number, from: from, to: to)
    return from
  }

  /// How many sessions are in `state`.
  @inline(__always)
  public func count(in state: SceneState) -> Int {
    switch state {
    case .unattached: return counts.0
    case .foregroundInactive: return counts.1
    case .foregroundActive: return counts.2
    case .background: return counts.3
    }
  }

  /// A new session, numbered above every open one.
  public mutating func append(_ scene: Scene) {
    precondition(items.last.map { $0.number < scene.number } ?? true, "scene numbers rise")
    items.append(scene)
    add(scene.state, 1)
    if scene.state.isForeground { onScreen.append(scene.number) }
    if focus == nil || scene.lastForward > items[index(of: focus!)!].lastForward { focus = scene.number }
  }

  /// Removes the sessions `remove` picks, keeping the others' order.
  public mutating func removeAll(where remove: (Scene) throws -> Bool) rethrows {
    try items.removeAll(where: remove)
    recount()
  }

  @inline(__always)
  private mutating func moved(_ number: Int32, from: SceneState, to: SceneState) {
    add(from, -1)
    add(to, 1)
    if from.isForeground != to.isForeground {
      // A few sessions at most, and mostly one: appended or removed at the
      // end without shifting the others.
      if to.isForeground {
        if let last = onScreen.last, last > number {
          onScreen.insert(number, at: onScreen.firstIndex { $0 > number }!)
        } else {
          onScreen.append(number)
        }
      } else if let at = onScreen.lastIndex(of: number) {
        if at == onScreen.count - 1 { onScreen.removeLast() } else { onScreen.remove(at: at) }
      }
    }
  }

  private mutating func refocus(after scene: Scene) {
    guard let f = focus, let i = index(of: f) else { return recount() }
    let best = items[i]
    if scene.lastForward > best.lastForward || (scene.lastForward == best.lastForward && scene.number < best.number) {
      focus = scene.number
    } else if scene.number == f {
      recount()  // the focus moved back: rare, found by a walk
    }
  }

  @inline(__always)
  private mutating func add(_ state: SceneState, _ n: Int) {
    switch state {
    case .unattached: counts.0 += n
    case .foregroundInactive: counts.1 += n
    case .foregroundActive: counts.2 += n
    case .background: counts.3 += n
    }
  }

  /// Every figure again from the sessions (after a removal).
  private mutating func recount() {
    counts = (0, 0, 0, 0)
    onScreen.removeAll(keepingCapacity: true)
    focus = nil
    var best = Int.min
    for s in items {
      add(s.state, 1)
      if s.state.isForeground { onScreen.append(s.number) }
      if s.lastForward > best {
        best = s.lastForward
        focus = s.number
      }
    }
  }

  /// Every invariant that does not hold now.
  public func violations() -> [String] {
    var found: [String] = []
    for i in items.indices.dropFirst() where items[i - 1].number >= items[i].number {
      found.append("scene \(items[i].number) comes after scene \(items[i - 1].number)")
    }
    var copy = self
    copy.recount()
    if copy.counts != counts { found.append("the count of scenes per state is \(counts), a walk gives \(copy.counts)") }
    if copy.onScreen != onScreen { found.append("the scenes on screen are \(onScreen), a walk gives \(copy.onScreen)") }
    if copy.focus != focus {
      found.append("the focus scene is \(focus.map(String.init) ?? "none"), a walk gives \(copy.focus.map(String.init) ?? "none")")
    }
    return found
  }
}
