// A module named SwiftUI with the declarations of Apple's that every SwiftUI app names, shaped
// as apps use them: enough for a test to show an app's own declaration of one of these names
// hiding SwiftUI's (a module's own declarations are found before imported ones).

public protocol View {
    associatedtype Body: View
    @MainActor var body: Body { get }
}

public protocol Scene {
    associatedtype Body: Scene
    @MainActor var body: Body { get }
}

public protocol App {
    associatedtype Body: Scene
    @MainActor var body: Body { get }
    init()
}

extension Never: View, Scene {
    public var body: Never { fatalError() }
}

public struct WindowGroup<Content: View>: Scene {
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
}
