import CLua
import CLuaShim

/// What a new Lua state is given at set-up, as steps that C runs under
/// lua_pcall (ls_run_setup): building it allocates nothing in Lua, and
/// running it can fail with a status but never raise through Swift.
struct SetupPlan {
  /// Where `ref` steps leave their registry references.
  enum Slot {
    static let devices = 0, stores = 1, statsKeys = 2, workloadMetatable = 3, experimentMetatable = 4
    static let resetRun = 5, tostring = 6, errorMetatable = 7
    static let count = 8
  }

  private(set) var ops: [ls_setup_op] = []
  /// The steps' strings, each NUL-terminated.
  private(set) var bytes: [CChar] = []

  mutating func step<A: BinaryInteger, B: BinaryInteger>(_ op: Int, _ a: A, _ b: B, _ string: String = "") {
    let offset = bytes.count
    bytes.append(contentsOf: string.utf8CString)
    ops.append(ls_setup_op(op: Int32(op), a: Int64(a), b: Int64(b),
                           soff: Int32(offset), slen: Int32(bytes.count - offset - 1)))
  }

  mutating func step<A: BinaryInteger>(_ op: Int, _ a: A, _ string: String = "") { step(op, a, 0, string) }
  mutating func step(_ op: Int) { step(op, 0, 0) }

  mutating func table(_ arraySlots: Int, _ recordSlots: Int) { step(LS_SETUP_TABLE, arraySlots, recordSlots) }
  mutating func string(_ s: String) { step(LS_SETUP_STRING, 0, s) }
  mutating func integer<N: BinaryInteger>(_ n: N) { step(LS_SETUP_INTEGER, n) }
  mutating func boolean(_ b: Bool) { step(LS_SETUP_BOOLEAN, b ? 1 : 0) }
  /// t[key] = v (raw) for the table below the value on top, which is popped.
  mutating func setField(_ key: String) { step(LS_SETUP_SETFIELD, 0, key) }
  mutating func weak(_ mode: String) { step(LS_SETUP_WEAK, 0, mode) }
  mutating func ref(_ slot: Int) { step(LS_SETUP_REF, slot) }

  /// A new array with one value per item, each added by `addOne` (one value).
  mutating func array<C: Collection>(_ items: C, _ addOne: (inout SetupPlan, C.Element) -> Void) {
    table(items.count, 0)
    for (i, item) in items.enumerated() {
      addOne(&self, item)
      step(LS_SETUP_SETI, i + 1)
    }
  }

  mutating func strings(_ items: [String]) { array(items) { $0.string($1) } }

  /// Sets the function rows of `owner` into the table on top.
  mutating func functions(of owner: APIOwner) {
    for (id, row) in API.rows(of: owner) {
      guard case .function = row.body else { continue }
      step(LS_SETUP_FUNCTION, id, row.qualifiedName)
      setField(row.name)
    }
  }

  /// A metatable for tables lifesim hands out (workloads, experiments): methods
  /// through `__index`, a fixed `__name`. Leaves it on top.
  mutating func tableMetatable(name: String, methods: APIOwner?) {
    table(0, 3)
    table(0, 4)
    if let methods { functions(of: methods) }
    setField("__index")
    string(name)
    setField("__name")
  }

  /// The metatable of a kind of object: `__index` finds a method, else a
  /// field's row, else the kind's `__index` row (an error naming the nearest
  /// field); `__tostring`, `__newindex` and `__gc` are the kind's meta rows.
  mutating func metatable(_ kind: ObjectKind) {
    table(0, 6)
    table(0, 12)
    functions(of: .method(kind))
    let fields = API.rows(of: .field(kind))
    table(0, fields.count)
    for (id, row) in fields {
      integer(id)
      setField(row.name)
    }
    step(LS_SETUP_INDEX, API.index(of: .meta(kind), "__index")!)
    setField("__index")
    for (id, row) in API.rows(of: .meta(kind)) where row.name != "__index" {
      step(row.name == "__gc" ? LS_SETUP_FINALIZER : LS_SETUP_FUNCTION, id, row.qualifiedName)
      setField(row.name)
    }
    boolean(false)
    setField("__metatable")  // scripts cannot reach or replace it
    string("lifesim." + kind.luaName)
    setField("__name")
    step(LS_SETUP_METATABLE, kind.rawValue)
  }

  /// Runs the plan on `L`, given the `nargs` values on top; `refs` receives
  /// the `ref` steps' references. Returns a Lua status.
  func run(_ L: LuaState, nargs: Int32 = 0, _ refs: inout [Int32]) -> Int32 {
    ops.withUnsafeBufferPointer { o in
      bytes.withUnsafeBufferPointer { b in
        refs.withUnsafeMutableBufferPointer { r in
          ls_run_setup(L, nargs, o.baseAddress, Int32(o.count), b.baseAddress, r.baseAddress)
        }
      }
    }
  }
}
