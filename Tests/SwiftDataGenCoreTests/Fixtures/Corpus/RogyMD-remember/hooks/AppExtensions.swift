// The app declares `Rect.zero` in its own code (its schema's initial value names it); the corpus
// declares the same value here so the generated schema compiles as it would in the app.
extension SchemaV3.Rect {
    static let zero = SchemaV3.Rect(x: 0, y: 0, width: 0, height: 0)
}
