/// The engine's tables as one value each device holds, so that its hot path
/// reads them with a load. A `static let` such as `AppLifecycle.scene` is
/// reached through `swift_once` on every read on Linux (a call into the
/// runtime, not an inlined check): 4–7 % of a run's time went there.
///
/// The tables are the registry's (`Machine`): each is named once, in its
/// row, and taken back here with its types when the device is made.
struct Machines {
  /// `MachineRow.all`, by `Machine`.
  let rows: [MachineRow]
  /// `Machine.allCases`, held: the synthesized `allCases` builds an array
  /// on every read, and the fingerprint reads it for every state.
  let order: [Machine] = Machine.allCases
  /// The process machine of the app-delegate model (`Machine.processAppDelegate`).
  let appDelegate: TransitionTable<AppState, AppEvent>
  /// The process machine of the scene model (`Machine.processScene`).
  let scene: TransitionTable<AppState, AppEvent>
  /// A scene's machine (`Machine.scene`).
  let sceneMachine: TransitionTable<SceneState, SceneEvent>
  /// A view controller's appearance (`Machine.appearance`).
  let appearance: TransitionTable<Appearance, AppearanceEvent>
  /// `Callback.rows`.
  let callbacks = Callback.rows

  init() {
    rows = MachineRow.all
    appDelegate = rows[Machine.processAppDelegate.rawValue].typedTable()
    scene = rows[Machine.processScene.rawValue].typedTable()
    sceneMachine = rows[Machine.scene.rawValue].typedTable()
    appearance = rows[Machine.appearance.rawValue].typedTable()
  }

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

  /// How many callbacks edge `e` has, and the `k`th: what the walk reads,
  /// one by one, without holding the edge's array.
  @inline(__always)
  func callbackCount(_ model: LifecycleModel, _ e: Int) -> Int {
    model == .appDelegate ? appDelegate.transitions[e].callbacks.count : scene.transitions[e].callbacks.count
  }

  @inline(__always)
  func callback(_ model: LifecycleModel, _ e: Int, _ k: Int) -> Callback {
    model == .appDelegate ? appDelegate.transitions[e].callbacks[k] : scene.transitions[e].callbacks[k]
  }

  /// `callback.notification`, read from the held rows.
  @inline(__always)
  func notification(_ callback: Callback) -> AppNotification? { callbacks[Int(callback.rawValue)].notification }

  /// `callback.receiver`, read from the held rows.
  @inline(__always)
  func receiver(_ callback: Callback) -> Receiver { callbacks[Int(callback.rawValue)].receiver }
}
