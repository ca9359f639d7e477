import LifeSimEngine

extension ExplainSearch {
  /// The callbacks the app explained implements: those its log shows. UIKit
  /// sends some only to an app that implements them (a scene's restoration
  /// activity, the notification center delegate's): a log that shows one
  /// shows the app implements it.
  public static func implemented(by log: ParsedLog) -> [Callback] {
    Callback.allCases.filter { c in
      log.symbol(of: .callback(c)) != nil && implementedOnly.contains(c)
    }
  }

  /// The callbacks UIKit sends only to an app that implements them (the
  /// others come whether or not it does, so a log of them says nothing of
  /// the app).
  static let implementedOnly: Set<Callback> = [.stateRestorationActivity, .userNotificationCenterWillPresent,
                                               .userNotificationCenterDidReceive, .viewIsAppearing]
}

extension ExplainReport {
  /// The Lua that gives the app a handler for each callback it implements
  /// (`ExplainSearch.implemented(by:)`), so that UIKit sends it as it did.
  /// With `kills`, the app's code (`codeLua`) is the handler of the one
  /// whose own handler takes the place of every other (`stateRestorationActivityForScene:`),
  /// so that it runs there too.
  func implementedLua(kills: Bool) -> String {
    ExplainSearch.implemented(by: log).map {
      let f = kills && $0 == .stateRestorationActivity ? "code" : "function() end"
      return "app:on(\(quoted($0.selector)), \(f))  -- the log shows the app implements it\n"
    }.joined()
  }
}
