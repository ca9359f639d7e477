/// The engine's tables as one value each device holds, so that its hot path
/// reads them with a load. A `static let` such as `AppLifecycle.scene` is
/// reached through `swift_once` on every read on Linux (a call into the
/// runtime, not an inlined check): 4–7 % of a run's time went there.
struct Machines {
  let appDelegate = AppLifecycle.appDelegate
  let scene = AppLifecycle.scene
  /// `SceneLifecycle.table`.
  let sceneMachine = SceneLifecycle.table
  /// `AppearanceLifecycle.table`.
  let appearance = AppearanceLifecycle.table
  /// `Callback.rows`.
  let callbacks = Callback.rows

  /// The position of the edge for (state, event) in the process table of `model`.
  @inline(__always)
  func edge(_ model: LifecycleModel, from state: AppState, on event: AppEvent) -> Int? {
    model == .appDelegate ? appDelegate.edge(from: state, on: event) : scene.edge(from: state, on: event)
  }

  @inline(__always)
  func target(_ model: LifecycleModel, _ e: Int) -> AppState {
    model == .appDelegate ? appDelegate.transitions[e].to : scene.transitions[e].to
  }

  @inline(__always)
  func deliveredAfter(_ model: LifecycleModel, _ e: Int) -> Bool {
    model == .appDelegate ? appDelegate.transitions[e].deliveredAfter : scene.transitions[e].deliveredAfter
  }

  @inline(__always)
  func callbacks(_ model: LifecycleModel, _ e: Int) -> [Callback] {
    model == .appDelegate ? appDelegate.transitions[e].callbacks : scene.transitions[e].callbacks
  }

  /// `callback.notification`, read from the held rows.
  @inline(__always)
  func notification(_ callback: Callback) -> AppNotification? { callbacks[Int(callback.rawValue)].notification }

  /// `callback.receiver`, read from the held rows.
  @inline(__always)
  func receiver(_ callback: Callback) -> Receiver { callbacks[Int(callback.rawValue)].receiver }
}
