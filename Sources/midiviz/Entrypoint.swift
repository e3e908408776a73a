import MIDIVizCLI

@main
enum Entrypoint {
    static func main() {
        MIDIVizCommand.mainExpandingBareOptions()
    }
}
