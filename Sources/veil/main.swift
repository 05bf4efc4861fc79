import Foundation
import VeilKit
import VeilVocabulary

// What each command accepts, says in help, completes and documents is in its
// definition (Definitions/, `Commands.top`); this file only dispatches.

// Photo batches reuse their per-pass blocks; everything else (the server
// above all) hands large blocks back when freed. `veil video` sets its own.
switch CommandLine.arguments.dropFirst().first {
case "blur", "faces", "lift", "text": MemoryPolicy.reuseLargeBlocks()
default: MemoryPolicy.returnLargeBlocksToSystem()
}

let words = Array(CommandLine.arguments.dropFirst())
let rest = Array(words.dropFirst())
let status: Int32
do {
    switch words.first {
    case "faces": status = try await FacesCommand.run(rest)
    case "text": status = try await TextCommand.run(rest)
    case "lift": status = try await LiftCommand.run(rest)
    case "blur": status = try await BlurCommand.run(rest)
    case "video": status = try await VideoCommand.run(rest)
    case "serve": status = try await ServeCommand.run(rest)
    case "status": status = try StatusCommand.run(rest)
    case "models": status = try ModelsCommand.run(rest)
    case "help", "--help", "-h": status = try HelpCommand.run(rest)
    case "version", "--version": status = try VersionCommand.run(rest)
    case "completions": status = try CompletionsCommand.run(rest)
    case "man": status = try ManCommand.run(rest)
    case nil: printError(HelpText.overview()); status = ExitCode.usage.rawValue
    case let other?: throw InputError(Commands.unknown([other]))
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
    printError("veil: \(error)")
    status = ExitCode.failed.rawValue
}
exit(status)
