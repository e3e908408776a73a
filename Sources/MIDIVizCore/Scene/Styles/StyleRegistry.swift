/// Every style, in the order help and `--style` list them. A new style: one line here.
enum StyleRegistry {
    static let layouts: [any StyleLayout.Type] = [
        CirclesLayout.self,
        BarsLayout.self,
        RollLayout.self,
        KeyboardLayout.self,
        SheetLayout.self,
    ]
}
