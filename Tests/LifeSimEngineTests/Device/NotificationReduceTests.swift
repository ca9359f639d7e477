import Testing
@testable import LifeSimEngine

/// The notification rules of `Screen.reduce` as a pure function: who hears a
/// notification that arrives or is opened, from the screen, the app and the
/// profile's `notificationCenterDelegate` fact.
struct NotificationReduceTests {
  let app = AppID(0), other = AppID(1)
  let ios9 = ScreenFacts(lockEntersBackground: true)
  let ios17 = ScreenFacts(lockEntersBackground: true, notificationCenterDelegate: true)
  let delegateApp = NotificationApp(active: true, willPresent: true, didReceive: true)
  let plainApp = NotificationApp(active: true, willPresent: false, didReceive: false)

  func front(_ id: AppID?) -> Screen {
    var s = Screen()
    s.frontmost = id
    return s
  }

  @Test func anArrivingNotificationReachesTheDelegateOnlyWhereTheProfileHasOne() {
    var s = front(app)
    #expect(s.reduce(.notificationArrives(app, remote: false, app: delegateApp), facts: ios17)
            == [.deliver(.userNotificationCenterWillPresent, app)])
    // Only didReceive implemented is a delegate too.
    let didReceiveOnly = NotificationApp(active: true, willPresent: false, didReceive: true)
    #expect(s.reduce(.notificationArrives(app, remote: false, app: didReceiveOnly), facts: ios17)
            == [.deliver(.userNotificationCenterWillPresent, app)])
    // No UNUserNotificationCenter on the profile: the legacy method, for a remote one only.
    #expect(s.reduce(.notificationArrives(app, remote: true, app: delegateApp), facts: ios9)
            == [.deliver(.didReceiveRemoteNotification, app)])
    #expect(s.reduce(.notificationArrives(app, remote: false, app: delegateApp), facts: ios9) == [])
    #expect(s.reduce(.notificationArrives(app, remote: false, app: plainApp), facts: ios17) == [])
    #expect(s == front(app))
  }

  @Test func anArrivingNotificationIsShownByTheSystemWhenTheAppIsNotActiveInFront() {
    var s = front(other)
    #expect(s.reduce(.notificationArrives(app, remote: true, app: delegateApp), facts: ios17) == [])
    var f = front(app)
    let inactive = NotificationApp(active: false, willPresent: true, didReceive: true)
    #expect(f.reduce(.notificationArrives(app, remote: true, app: inactive), facts: ios17) == [])
  }

  @Test func anOpenedNotificationReachesAnActiveAppAtOnceAndBringsAnyOtherForward() {
    var s = front(app)
    #expect(s.reduce(.notificationOpened(app, remote: false, app: delegateApp), facts: ios17)
            == [.deliver(.userNotificationCenterDidReceive, app)])
    #expect(s.reduce(.notificationOpened(app, remote: false, app: plainApp), facts: ios17) == [])
    // Covered by the switcher: it comes forward through the screen.
    s.isSwitcherOpen = true
    #expect(s.reduce(.notificationOpened(app, remote: true, app: plainApp), facts: ios17)
            == [.bringForwardOpening(app, remote: true, callback: .didReceiveRemoteNotification)])
    var o = front(other)
    #expect(o.reduce(.notificationOpened(app, remote: false, app: delegateApp), facts: ios9)
            == [.bringForwardOpening(app, remote: false, callback: nil)])
    #expect(o.frontmost == other)
  }
}
