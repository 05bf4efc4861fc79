import Foundation
import VeilKit
import VeilVocabulary

// What each command accepts, says in help, completes and documents is in its
// definition (Definitions/, `Commands.top`), what runs it too; this file only
// runs what the definitions name.

// Photo batches reuse their per-pass blocks; everything else (the server
// above all) hands large blocks back when freed.
switch CommandLine.arguments.dropFirst().first {
case "blur", "faces", "lift", "text", "video": MemoryPolicy.reuseLargeBlocks()
default: MemoryPolicy.returnLargeBlocksToSystem()
}
// x264's huge pages, faulted in while a live stream's first frame is detected, delayed it.
if CommandLine.arguments.dropFirst().first == "video" { MemoryPolicy.refuseHugePages() }

// A batch's log that a signal or a kill ends still ends with whole lines.
StandardOutput.lineBuffered()

let words = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    if words.isEmpty {
        printError(HelpText.overview())
        status = ExitCode.usage.rawValue
    } else if let (spec, rest) = Commands.resolve(words), let action = spec.action {
        status = try await action(rest)
    } else {
        throw InputError(Commands.unknown([words[0]]))
    }
} catch let request as HelpRequest {
    print(HelpText.command(request.spec))
    status = ExitCode.ok.rawValue
} catch let check as ParseCheck {
    print(check.report)
    status = ExitCode.ok.rawValue
} catch let error as InputError {
    // Point at the command's own help when the command is known (help's mistakes: at the list).
    let known = Commands.find(Array(words.prefix(1))).flatMap { $0.name == "help" ? nil : $0 }
    printError("veil: \(error) (see `veil \(known.map { "\($0.name) --help" } ?? "help")`)")
    status = ExitCode.usage.rawValue
} catch {
    BatchStop.waitIfStopping()
    printError("veil: \(error)")
    status = ExitCode.failed.rawValue
}
BatchStop.waitIfStopping()
exit(status)
